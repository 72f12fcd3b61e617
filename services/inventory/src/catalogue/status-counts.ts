import { equipmentStatuses } from '@cm/contracts';

/** The select list of an aggregate over equipment `e`: one int column per status. */
export const statusCountsSelect = (e: string) =>
  equipmentStatuses.map((s) => `count(*) FILTER (WHERE ${e}.status = '${s}')::int AS ${s}`).join(', ');

/** Those columns of `c` as the one statusCounts object the list items carry (0 where `c` is missing). */
export const statusCountsOf = (c: string) =>
  `json_build_object(${equipmentStatuses.map((s) => `'${s}', coalesce(${c}.${s}, 0)`).join(', ')})`;
