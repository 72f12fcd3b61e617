import { type EquipmentStatus, equipmentStatuses } from '@cm/contracts';

/**
 * The one word each equipment status is shown with, on every screen: the spec's status values,
 * capitalised as its indicator labels are (section 4). "Online" and "Offline" are the Reports
 * tiles' words for counts (section 2), never a device's status.
 */
export const statusWords: Record<EquipmentStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  maintenance: 'Maintenance',
  partial: 'Partial',
};

export const isEquipmentStatus = (status: string): status is EquipmentStatus =>
  (equipmentStatuses as readonly string[]).includes(status);

/** The status's word, or "Unknown" for anything else (a status written by an older client, say). */
export function statusWord(status: string): string {
  return isEquipmentStatus(status) ? statusWords[status] : 'Unknown';
}
