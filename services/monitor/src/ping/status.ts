import { type AddressResult, type EquipmentStatus } from '@cm/contracts';

export type MeasuredStatus = Extract<EquipmentStatus, 'active' | 'inactive' | 'partial'>;

/**
 * What one equipment's pings say: a single address is active or inactive; a range is active when
 * every address answered, inactive when none did, partial otherwise. The round-trip time is the
 * mean of the answering addresses (null when none answered).
 */
export function summarize(results: readonly AddressResult[]): {
  status: MeasuredStatus;
  rttMs: number | null;
} {
  const answered = results.filter((r) => r.alive && r.rttMs !== null);
  const alive = results.filter((r) => r.alive).length;
  const status: MeasuredStatus =
    results.length > 0 && alive === results.length ? 'active' : alive === 0 ? 'inactive' : 'partial';
  const rttMs = answered.length
    ? Math.round((answered.reduce((sum, r) => sum + (r.rttMs ?? 0), 0) / answered.length) * 1000) / 1000
    : null;
  return { status, rttMs };
}
