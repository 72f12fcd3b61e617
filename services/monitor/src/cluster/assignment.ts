import { type SweepAssignment } from '@cm/contracts';
import { ownerOf } from './rendezvous';

/**
 * Whether `me` pings this equipment in this part of a sweep. Part 0 splits all equipment over
 * the members; a later part takes the equipment whose owner (among the members not excluded
 * before it) is one of the `reassigned` replicas, and gives each to its owner among those left.
 */
export function ownsTarget(equipmentId: string, a: SweepAssignment, me: string): boolean {
  const remaining = a.members.filter((m) => !a.excluded.includes(m));
  const owner = ownerOf(equipmentId, remaining);
  if (a.reassigned.length === 0) return owner === me;
  if (!owner || !a.reassigned.includes(owner)) return false;
  return (
    ownerOf(
      equipmentId,
      remaining.filter((m) => !a.reassigned.includes(m)),
    ) === me
  );
}
