import { ROOM_CHECK_ANSWER_MS, type RoomCheckResult } from '@cm/contracts';

/**
 * What a room check found that puts a class at risk: devices offline or partly answering, probe
 * faults, and devices that had not answered when the check's answer was due (a class cannot wait
 * for a device that takes longer than that either).
 */
export function readinessReasons(
  result: Pick<RoomCheckResult, 'equipment'>,
  names: ReadonlyMap<string, { name: string; ipAddress: string | null }>,
): string[] {
  const reasons: string[] = [];
  for (const e of result.equipment) {
    const device = names.get(e.equipmentId);
    const label = device?.ipAddress
      ? `${device.name} (${device.ipAddress})`
      : (device?.name ?? e.equipmentId);
    if (e.status === 'inactive') reasons.push(`${label} offline`);
    else if (e.status === 'partial') reasons.push(`${label} partly answering`);
    if (e.pending) {
      const within = `within ${ROOM_CHECK_ANSWER_MS / 1000} s`;
      reasons.push(
        e.status === null
          ? `${label} not answering ${within}`
          : `${label}: deep probe not answering ${within}`,
      );
    }
    if (e.probe && e.probe.outcome !== 'answered') {
      reasons.push(`${label}: ${e.probe.detail ?? `deep probe ${e.probe.outcome}`}`);
    }
  }
  return reasons;
}
