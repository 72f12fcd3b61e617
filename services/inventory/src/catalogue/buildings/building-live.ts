import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';

/** Live events for open screens once a building's edit, or an import, commits. */
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

  @OnInventoryEvent('import.applied')
  imported({ createdBuildingIds, changedBuildingIds }: InventoryEvents['import.applied']): void {
    for (const id of createdBuildingIds)
      this.live.inventoryChanged({ kind: 'building', action: 'created', id });
    for (const id of changedBuildingIds)
      this.live.inventoryChanged({ kind: 'building', action: 'updated', id });
  }

  @OnInventoryEvent('building.deleted')
  deleted({ id }: InventoryEvents['building.deleted']): void {
    this.live.inventoryChanged({ kind: 'building', action: 'deleted', id });
  }
}
