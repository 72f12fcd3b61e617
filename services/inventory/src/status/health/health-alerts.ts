import { type Transaction } from '../../shared/database/table.repository';
import { type AlertOutcome } from '../checks/check-alerts';
import { type HealthRecord } from './health-rules';

/** A device whose health state (or what its reasons say) changed in a batch, as it is now. */
export interface HealthChange {
  equipmentId: string;
  roomId: string;
  buildingId: string;
  record: HealthRecord;
  previousState: HealthRecord['state'] | null;
  /** Its probe was refused the credentials now, and was not at its reading before. */
  authFailedNow: boolean;
}

/**
 * Alerts on device health, as status calls them. Declared here, implemented by alerting (which
 * status may not import) and provided under `HEALTH_ALERTS`: the decisions commit in the health
 * batch's own transaction, so a batch delivered again decides nothing twice.
 */
export interface HealthAlerts {
  /** In the batch's transaction, after the health records were written: the devices whose state changed. */
  afterHealth(tx: Transaction, changes: readonly HealthChange[]): Promise<AlertOutcome>;
  /** After the commit: the relay sends what was queued. */
  announce(outcome: AlertOutcome): void;
}

export const HEALTH_ALERTS = Symbol('HealthAlerts');
