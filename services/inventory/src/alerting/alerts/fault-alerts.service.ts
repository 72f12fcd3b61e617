import { Injectable } from '@nestjs/common';
import { type Transaction } from '../../shared/database/table.repository';
import {
  type AlertOutcome,
  type HealthAlerts,
  type HealthChange,
  MaintenanceWindowsService,
  noAlerts,
} from '../../status';
import { DeliveryRelay } from '../notifications/delivery.relay';
import { AlertQueue } from './alert-queue.service';
import { faultDecision, faultMessage } from './fault-rules';
import { FaultAlertRepository } from './fault-alert.repository';

/**
 * Alerts on device health (status's `HealthAlerts`): a device that answers ping but whose probe
 * reports a fault gets a message of its own, with the probe's reasons, in the transaction that
 * recorded the readings. Devices offline (the room alert tells of them), in maintenance, or
 * covered by a maintenance window are not told of; the decisions are `fault-rules.ts`.
 */
@Injectable()
export class FaultAlerts implements HealthAlerts {
  constructor(
    private readonly faults: FaultAlertRepository,
    private readonly windows: MaintenanceWindowsService,
    private readonly queue: AlertQueue,
    private readonly relay: DeliveryRelay,
  ) {}

  async afterHealth(tx: Transaction, changes: readonly HealthChange[]): Promise<AlertOutcome> {
    const outcome = noAlerts();
    if (changes.length === 0) return outcome;
    const places = new Map(
      (
        await this.faults.places(
          tx,
          changes.map((c) => c.equipmentId),
        )
      ).map((p) => [p.id, p]),
    );
    const now = new Date();
    const covered = await this.windows.coveringEquipment([...places.keys()], now);
    const opened: string[] = [];
    const recovered: string[] = [];
    for (const change of changes) {
      const place = places.get(change.equipmentId);
      if (!place || ['inactive', 'maintenance'].includes(place.status) || covered.has(place.id)) continue;
      const kind = faultDecision({ ...change, state: change.record.state, alerted: place.alerted });
      if (!kind) continue;
      (kind === 'fault.opened' ? opened : recovered).push(place.id);
      const room = {
        id: place.room.id,
        name: place.room.name,
        buildingId: place.building.id,
        buildingName: place.building.name,
      };
      outcome.queued += await this.queue.queue(tx, room, faultMessage(kind, place, change.record));
    }
    await this.faults.mark(tx, opened, now);
    await this.faults.mark(tx, recovered, null);
    return outcome;
  }

  announce(outcome: AlertOutcome): void {
    if (outcome.queued > 0) this.relay.kick();
  }
}
