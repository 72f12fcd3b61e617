import { type EquipmentStatus } from '@cm/contracts';
import { type Transaction } from '../../shared/database/table.repository';
import { type AlertsChanged } from '../../shared/events/inventory-events';

/** A check (or a person's status change) that changed an equipment's status, in order. */
export interface CountedObservation {
  at: number;
  status: EquipmentStatus;
  manual?: boolean;
}

/** An equipment of a status batch, as the alert engine is handed it. */
export interface CheckedDevice {
  id: string;
  roomId: string;
  /** Its locked state row, holding the columns `CheckAlerts.stateColumns` named. */
  row: object;
  observations: CountedObservation[];
}

/**
 * What the alert decisions of one transaction did, for the caller to act on after its commit:
 * the payload of the `alerts.changed` event.
 */
export type AlertOutcome = AlertsChanged;

export const noAlerts = (): AlertOutcome => ({ queued: 0, rooms: [] });

/**
 * The alert engine as status calls it. Declared here, implemented by alerting (the context above
 * status, which status may not import) and provided under `CHECK_ALERTS`: the decisions commit in
 * the status batch's own transaction.
 */
export interface CheckAlerts {
  /** Columns of `equipment_state` (alias `st`) read with the batch's locked rows. */
  readonly stateColumns: string;
  /** In the batch's transaction, after its statuses were written. */
  afterChecks(tx: Transaction, devices: readonly CheckedDevice[]): Promise<AlertOutcome>;
  /** After the commit: the relay sends what was queued, open screens refetch the rooms' alerts. */
  announce(outcome: AlertOutcome): void;
}

export const CHECK_ALERTS = Symbol('CheckAlerts');
