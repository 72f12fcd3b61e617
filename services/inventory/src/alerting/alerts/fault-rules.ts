import { type HealthState } from '@cm/contracts';
import { type AlertMessage, placeLabel } from './alert-rules';

const severity: Record<HealthState, number> = { ok: 0, unknown: 0, warning: 1, error: 2 };

/** What a change of a device's health is worth telling. */
export interface FaultStep {
  state: HealthState;
  previousState: HealthState | null;
  /** Its probe was refused the credentials now, and was not at its reading before. */
  authFailedNow: boolean;
  /** A fault of this device was told and no recovery since. */
  alerted: boolean;
}

/**
 * A fault is told when the health gets worse (ok → warning → error) or the probe is first
 * refused its credentials (a wrong password, told once however many probes it refuses); its end
 * is told when the health is back to ok, only after a fault was told. Anything else (a warning
 * that becomes another warning, an error that stays one) is no news.
 */
export function faultDecision(step: FaultStep): 'fault.opened' | 'fault.recovered' | null {
  const now = severity[step.state];
  const before = step.previousState ? severity[step.previousState] : 0;
  if (step.authFailedNow || now > before) return 'fault.opened';
  if (now === 0 && step.alerted) return 'fault.recovered';
  return null;
}

export interface FaultDevice {
  id: string;
  name: string;
  address: string | null;
  room: { id: string; name: string };
  building: { id: string; name: string };
}

/** "Projector (10.1.2.3), Room 204, Science Hall: Wrong PJLink password" and its end. */
export function faultMessage(
  kind: 'fault.opened' | 'fault.recovered',
  device: FaultDevice,
  health: { state: HealthState; reasons: readonly string[] },
): AlertMessage {
  const who = `${device.name}${device.address ? ` (${device.address})` : ''}, ${placeLabel(device)}`;
  const what = kind === 'fault.opened' ? health.reasons.join('; ') || 'a fault' : 'no fault any more';
  return {
    kind,
    text: `${who}: ${what}`,
    subject: `${device.name}, ${placeLabel(device)}: ${kind === 'fault.opened' ? 'fault' : 'fault cleared'}`,
    data: {
      equipment: { id: device.id, name: device.name, address: device.address },
      room: device.room,
      building: device.building,
      health: { state: health.state, reasons: [...health.reasons] },
    },
  };
}
