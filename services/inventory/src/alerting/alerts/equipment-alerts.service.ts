import { type EquipmentStatus } from '@cm/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { type AfterCommit, type EquipmentWatch } from '../../catalogue';
import { type Transaction } from '../../shared/database/table.repository';
import { StatusRepository } from '../../status';
import { AlertEngine } from './alert-engine.service';

/** The catalogue's equipment edits, as they concern status and alerts. */
@Injectable()
export class EquipmentAlerts implements EquipmentWatch {
  private readonly logger = new Logger(EquipmentAlerts.name);

  constructor(
    private readonly status: StatusRepository,
    private readonly engine: AlertEngine,
  ) {}

  async statusSet(tx: Transaction, equipmentId: string, status: EquipmentStatus): Promise<AfterCommit> {
    const outcome = await this.status.recordManual(tx, equipmentId, status);
    return () => this.engine.announce(outcome);
  }

  async roomsChanged(roomIds: readonly string[]): Promise<void> {
    try {
      this.engine.announce(await this.engine.settleRooms(roomIds));
    } catch (error) {
      this.logger.warn(`Updating the alerts of rooms ${roomIds.join(', ')} failed: ${String(error)}`);
    }
  }
}
