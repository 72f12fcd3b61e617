import { type Tables } from './sql';

const inForceNow = 'w.starts_at <= now() AND w.ends_at > now()';

/**
 * Rows `id` of the equipment under a maintenance window in force now: its own, its room's or its
 * building's. Few windows are in force at once, so this set is small and read once per query.
 */
export const inMaintenanceNowSql = (t: Tables) => `
  SELECT w.equipment_id AS id FROM ${t.windows} w WHERE w.equipment_id IS NOT NULL AND ${inForceNow}
  UNION
  SELECT ce.id FROM ${t.windows} w JOIN ${t.equipment} ce ON ce.room_id = w.room_id WHERE ${inForceNow}
  UNION
  SELECT ce.id FROM ${t.windows} w
    JOIN ${t.rooms} cr ON cr.building_id = w.building_id
    JOIN ${t.equipment} ce ON ce.room_id = cr.id
   WHERE ${inForceNow}`;

/** A join marking each equipment `e` under a window now: `mw.id` is then not null. */
export const inMaintenanceJoin = (t: Tables, e: string) =>
  `LEFT JOIN (${inMaintenanceNowSql(t)}) mw ON mw.id = ${e}.id`;
