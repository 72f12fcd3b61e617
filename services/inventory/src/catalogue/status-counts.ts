import { equipmentStatuses } from '@cm/contracts';
import { type Tables } from '../shared/database/sql';

/**
 * Equipment `e`'s status as the lists count it: one under a maintenance window now (joined by
 * `inMaintenanceJoin`) counts as in maintenance, whatever its last check said, as a person's
 * status would; nobody expects it to answer.
 */
export const countedStatus = (e: string) =>
  `CASE WHEN mw.id IS NOT NULL THEN 'maintenance' ELSE ${e}.status END`;

/** The select list of an aggregate over equipment `e` (with `inMaintenanceJoin`): one int column per status. */
export const statusCountsSelect = (e: string) =>
  equipmentStatuses
    .map((s) => `count(*) FILTER (WHERE ${countedStatus(e)} = '${s}')::int AS ${s}`)
    .join(', ');

/** Those columns of `c` as the one statusCounts object the list items carry (0 where `c` is missing). */
export const statusCountsOf = (c: string) =>
  `json_build_object(${equipmentStatuses.map((s) => `'${s}', coalesce(${c}.${s}, 0)`).join(', ')})`;

/** Equipment `fe` (with `h`, its health) whose probe beyond ping reports a warning or an error now. */
const faulty = (
  t: Tables,
  joins = '',
) => `${t.health} h JOIN ${t.equipment} fe ON fe.id = h.equipment_id ${joins}
  WHERE h.state IN ('warning', 'error') AND fe.probe->>'type' <> 'icmp'`;

/** The select expression of room `r`'s fault count (read by the health table's index of faults). */
export const roomFaultsSelect = (t: Tables, r: string) =>
  `(SELECT count(*)::int FROM ${faulty(t)} AND fe.room_id = ${r}.id)`;

/** A join giving each building `b` its fault count as `f.faults` (null without any). */
export const buildingFaultsJoin = (t: Tables, b: string) => `LEFT JOIN (
  SELECT fr.building_id, count(*)::int AS faults
    FROM ${faulty(t, `JOIN ${t.rooms} fr ON fr.id = fe.room_id`)}
   GROUP BY fr.building_id
) f ON f.building_id = ${b}.id`;
