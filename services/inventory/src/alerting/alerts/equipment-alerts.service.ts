import { Injectable, Logger } from '@nestjs/common';
import { OnInventoryEvent, type TransactionScope } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { StatusRepository } from '../../status';
import { AlertEngine } from './alert-engine.service';

/** The catalogue's equipment edits, as they concern status and alerts. */
@Injectable()
export class EquipmentAlerts {
  private readonly logger = new Logger(EquipmentAlerts.name);

  constructor(
    private readonly status: StatusRepository,
    private readonly engine: AlertEngine,
  ) {}

  /**
   * In the update's transaction, which holds the equipment row: a person's status change is
   * recorded, and takes the equipment out of its alert (announced once the update commits).
   */
  @OnInventoryEvent('equipment.status-set', 'inTransaction')
  async statusSet(
    { equipmentId, status }: InventoryEvents['equipment.status-set'],
    { tx, events }: TransactionScope,
  ): Promise<void> {
    await events.emit('alerts.changed', await this.status.recordManual(tx, equipmentId, status));
  }

  /** Equipment moved, without an address or taken over by a person leaves its room's alert. */
  @OnInventoryEvent('equipment.updated')
  async updated({
    equipment,
    statusChanged,
    addressChanged,
    previousRoomId,
  }: InventoryEvents['equipment.updated']): Promise<void> {
    if (statusChanged || addressChanged || previousRoomId !== equipment.roomId) {
      await this.roomsChanged([previousRoomId, equipment.roomId]);
    }
  }

  /** Equipment deleted leaves its room's alert. */
  @OnInventoryEvent('equipment.deleted')
  async deleted({ roomId }: InventoryEvents['equipment.deleted']): Promise<void> {
    await this.roomsChanged([roomId]);
  }

  /** Never fails the edit: the next check of the room settles it anyway. */
  private async roomsChanged(roomIds: readonly string[]): Promise<void> {
    try {
      this.engine.announce(await this.engine.settleRooms(roomIds));
    } catch (error) {
      this.logger.warn(`Updating the alerts of rooms ${roomIds.join(', ')} failed: ${String(error)}`);
    }
  }
}
