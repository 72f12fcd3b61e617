import { type SweepAssignment } from '@cm/contracts';
import { ownerOf } from './rendezvous';

/**
 * Whether `me` pings this equipment in this part of a sweep. Part 0 splits all equipment over
 * the members; a later part takes the equipment whose owner (among the members not excluded
 * before it) is one of the `reassigned` replicas, and gives each to its owner among those left.
 */
export function ownsTarget(equipmentId: string, a: SweepAssignment, me: string): boolean {
  return ownership(a, me)(equipmentId);
}

/** `ownsTarget` of one assignment and member, for many equipment: the member lists are read once. */
export function ownership(a: SweepAssignment, me: string): (equipmentId: string) => boolean {
  const remaining = a.members.filter((m) => !a.excluded.includes(m));
  if (a.reassigned.length === 0) return (equipmentId) => ownerOf(equipmentId, remaining) === me;
  const left = remaining.filter((m) => !a.reassigned.includes(m));
  return (equipmentId) => {
    const owner = ownerOf(equipmentId, remaining);
    return owner !== undefined && a.reassigned.includes(owner) && ownerOf(equipmentId, left) === me;
  };
}
