import { type Tables } from '../../shared/database/sql';

/** SQL expressions naming one equipment and its parents. */
export interface CoveredEquipment {
  equipment: string;
  room: string;
  building: string;
}

/**
 * SQL answering the maintenance windows (rows `w` of `maintenance_windows`) over one equipment:
 * its own, its room's and its building's, those that meet `condition` (on `w`). Windows follow
 * the equipment's current room: one moved out of a room leaves that room's windows behind. Three
 * probes, one per target index, rather than one OR the planner would read as a scan.
 */
export const coveringWindowsSql = (t: Tables, covered: CoveredEquipment, condition: string) => `
  SELECT w.* FROM ${t.windows} w WHERE w.equipment_id = ${covered.equipment} AND ${condition}
  UNION ALL
  SELECT w.* FROM ${t.windows} w WHERE w.room_id = ${covered.room} AND ${condition}
  UNION ALL
  SELECT w.* FROM ${t.windows} w WHERE w.building_id = ${covered.building} AND ${condition}`;
