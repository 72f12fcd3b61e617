import { type EquipmentStatus } from '@cm/contracts';
import { isEquipmentStatus, statusWords } from '../../../lib/status-words';

type StatusTone = 'green' | 'red' | 'yellow' | 'grey';

export interface StatusIndicator {
  label: string;
  tone: StatusTone;
}

const tones: Record<EquipmentStatus, StatusTone> = {
  active: 'green',
  inactive: 'red',
  maintenance: 'yellow',
  partial: 'yellow',
};

/**
 * Spec section 4: green for active, red for inactive, yellow for maintenance and partial, grey
 * "Unknown" for anything else (a status written by an older client, say).
 */
export function statusIndicator(status: string): StatusIndicator {
  return isEquipmentStatus(status)
    ? { label: statusWords[status], tone: tones[status] }
    : { label: 'Unknown', tone: 'grey' };
}

/** The dot's colour class for each tone (Tailwind needs whole class names in the source). */
export const toneDotClass: Record<StatusTone, string> = {
  green: 'bg-green-500',
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  grey: 'bg-slate-400',
};
