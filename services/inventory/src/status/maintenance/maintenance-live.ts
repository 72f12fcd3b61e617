import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents, type MaintenanceTarget } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { MaintenanceWindowRepository } from './maintenance-window.repository';

const sameTarget = (a: MaintenanceTarget, b: MaintenanceTarget) =>
  a.buildingId === b.buildingId && a.roomId === b.roomId && a.equipmentId === b.equipmentId;

/**
 * Live events for open screens once a maintenance window's edit commits, naming the room and
 * building whose screens show the window. A target deleted meanwhile has no screen left to tell.
 */
@Injectable()
export class MaintenanceLive {
  constructor(
    private readonly windows: MaintenanceWindowRepository,
    private readonly live: LiveEventsPublisher,
  ) {}

  @OnInventoryEvent('maintenance-window.created')
  async created({ id, target }: InventoryEvents['maintenance-window.created']): Promise<void> {
    await this.announce(id, target, 'created');
  }

  @OnInventoryEvent('maintenance-window.updated')
  async updated({
    id,
    target,
    previousTarget,
  }: InventoryEvents['maintenance-window.updated']): Promise<void> {
    await this.announce(id, target, 'updated');
    // A window moved to another place leaves the first one's screens out of date too.
    if (!sameTarget(target, previousTarget)) await this.announce(id, previousTarget, 'updated');
  }

  @OnInventoryEvent('maintenance-window.deleted')
  async deleted({ id, target }: InventoryEvents['maintenance-window.deleted']): Promise<void> {
    await this.announce(id, target, 'deleted');
  }

  private async announce(id: string, target: MaintenanceTarget, action: 'created' | 'updated' | 'deleted') {
    const place = await this.windows.placeOf(target).catch(() => null);
    if (!place) return;
    this.live.inventoryChanged({
      kind: 'maintenanceWindow',
      action,
      id,
      buildingId: place.buildingId,
      ...(place.roomId ? { roomId: place.roomId } : {}),
    });
  }
}
