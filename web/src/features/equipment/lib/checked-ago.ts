import { type Equipment } from '@cm/contracts';
import { timeAgo } from '../../../lib/time';

/** When the monitor last heard of it: its last ping, or its deep probe's reading if later. */
export function lastCheckedAt(equipment: Pick<Equipment, 'lastCheckedAt' | 'health'>): number | null {
  const times = [equipment.lastCheckedAt, equipment.health?.checkedAt]
    .filter((t): t is string => Boolean(t))
    .map((t) => Date.parse(t));
  return times.length ? Math.max(...times) : null;
}

/**
 * "Checked 12 s ago", to the second within the first minute (a technician who just asked for a
 * check wants to see that this is its answer), then as `timeAgo` says it; "Not checked yet".
 */
export function checkedAgo(at: number | null, now: number): string {
  if (at === null) return 'Not checked yet';
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return seconds < 60 ? `Checked ${seconds} s ago` : `Checked ${timeAgo(at, now)}`;
}
