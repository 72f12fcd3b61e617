import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';

/** Live events for open screens once a room's edit commits. */
@Injectable()
export class RoomLive {
  constructor(private readonly live: LiveEventsPublisher) {}

  @OnInventoryEvent('room.created')
  created({ id, buildingId }: InventoryEvents['room.created']): void {
    this.live.inventoryChanged({ kind: 'room', action: 'created', id, buildingId });
  }

  @OnInventoryEvent('room.updated')
  updated({ id, buildingId }: InventoryEvents['room.updated']): void {
    this.live.inventoryChanged({ kind: 'room', action: 'updated', id, buildingId });
  }

  @OnInventoryEvent('room.deleted')
  deleted({ id, buildingId }: InventoryEvents['room.deleted']): void {
    this.live.inventoryChanged({ kind: 'room', action: 'deleted', id, buildingId });
  }
}
