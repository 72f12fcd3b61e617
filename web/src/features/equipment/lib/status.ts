import { type EquipmentStatus, equipmentStatuses } from '@cm/contracts';

type StatusTone = 'green' | 'red' | 'yellow' | 'grey';

export interface StatusIndicator {
  label: string;
  tone: StatusTone;
}

const indicators: Record<EquipmentStatus, StatusIndicator> = {
  active: { label: 'Active', tone: 'green' },
  inactive: { label: 'Inactive', tone: 'red' },
  maintenance: { label: 'Maintenance', tone: 'yellow' },
  partial: { label: 'Partial', tone: 'yellow' },
};

const isKnown = (status: string): status is EquipmentStatus =>
  (equipmentStatuses as readonly string[]).includes(status);

/**
 * Spec section 4: green for active, red for inactive, yellow for maintenance and partial, grey
 * "Unknown" for anything else (a status written by an older client, say).
 */
export function statusIndicator(status: string): StatusIndicator {
  return isKnown(status) ? indicators[status] : { label: 'Unknown', tone: 'grey' };
}

/** The dot's colour class for each tone (Tailwind needs whole class names in the source). */
export const toneDotClass: Record<StatusTone, string> = {
  green: 'bg-green-500',
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  grey: 'bg-slate-400',
};
