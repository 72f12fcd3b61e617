import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';

/** Live events for open screens once a building's edit commits. */
@Injectable()
export class BuildingLive {
  constructor(private readonly live: LiveEventsPublisher) {}

  @OnInventoryEvent('building.created')
  created({ id }: InventoryEvents['building.created']): void {
    this.live.inventoryChanged({ kind: 'building', action: 'created', id });
  }

  @OnInventoryEvent('building.updated')
  updated({ id }: InventoryEvents['building.updated']): void {
    this.live.inventoryChanged({ kind: 'building', action: 'updated', id });
  }

  @OnInventoryEvent('building.deleted')
  deleted({ id }: InventoryEvents['building.deleted']): void {
    this.live.inventoryChanged({ kind: 'building', action: 'deleted', id });
  }
}
