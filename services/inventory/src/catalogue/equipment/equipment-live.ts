import { type EquipmentStatus } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { EquipmentRepository } from './equipment.repository';

/**
 * Live events for open screens after an equipment edit commits: the change, and a person's status
 * change as a status event (with the check time and round trip the equipment already had). A move
 * is also a change of the room it left, whose counts changed too. The edit's answer does not wait
 * for them.
 */
@Injectable()
export class EquipmentLive {
  constructor(
    private readonly equipment: EquipmentRepository,
    private readonly live: LiveEventsPublisher,
  ) {}

  @OnInventoryEvent('equipment.created')
  created({ equipment }: InventoryEvents['equipment.created']): void {
    void this.announce({ equipment, statusChanged: false, previousRoomId: equipment.roomId }, 'created');
  }

  @OnInventoryEvent('equipment.updated')
  updated(update: InventoryEvents['equipment.updated']): void {
    void this.announce(update, 'updated');
  }

  @OnInventoryEvent('equipment.deleted')
  deleted({ id, roomId, buildingId }: InventoryEvents['equipment.deleted']): void {
    this.live.inventoryChanged({ kind: 'equipment', action: 'deleted', id, roomId, buildingId });
  }

  private async announce(
    {
      equipment,
      statusChanged,
      previousRoomId,
    }: Omit<InventoryEvents['equipment.updated'], 'addressChanged'>,
    action: 'created' | 'updated',
  ): Promise<void> {
    const buildingId = await this.equipment.buildingOf(equipment.roomId).catch(() => null);
    if (!buildingId) return;
    const { id, roomId } = equipment;
    this.live.inventoryChanged({ kind: 'equipment', action, id, roomId, buildingId });
    if (previousRoomId !== roomId) {
      const left = await this.equipment.buildingOf(previousRoomId).catch(() => null);
      if (left)
        this.live.inventoryChanged({ kind: 'room', action: 'updated', id: previousRoomId, buildingId: left });
    }
    if (statusChanged) {
      await this.live.statusChanged([
        {
          equipmentId: id,
          roomId,
          buildingId,
          status: equipment.status as EquipmentStatus,
          // The row's timestamp is a Date until it is serialised; the event carries the ISO text.
          lastCheckedAt: equipment.lastCheckedAt ? new Date(equipment.lastCheckedAt).toISOString() : null,
          rttMs: equipment.lastRttMs ?? null,
        },
      ]);
    }
  }
}
