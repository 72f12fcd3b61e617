import { type EquipmentUptime } from '@cm/contracts';
import { type Tables } from '../../shared/database/sql';
import { coveringWindowsSql } from '../maintenance/covering';

/**
 * Uptime as the report reckons it, in one place so that every figure of it agrees: each status
 * holds until the next (the spans), cut to the window (the span open at its start covers it, the
 * open one lasts until its end); active is up, inactive and partial down, maintenance neither.
 * Time inside a maintenance window over the equipment (its own, its room's or its building's) is
 * neither too, whatever the status: the spans are cut by the windows, and what is left is counted.
 */

/**
 * SQL answering `up` and `down` seconds of the equipment `equipment` (an SQL expression) within
 * [`from`, `to`) (parameter placeholders), as one row. `parents`, when the caller has them at
 * hand (the report joins them), saves looking up the equipment's room and building.
 */
export const uptimeSecondsSql = (
  t: Tables,
  equipment: string,
  from: string,
  to: string,
  parents?: { room: string; building: string },
) => {
  const overlapping = `w.starts_at < ${to} AND w.ends_at > ${from}`;
  const windows = parents
    ? `SELECT range_agg(tstzrange(w.starts_at, w.ends_at)) AS ranges
         FROM (${coveringWindowsSql(t, { equipment, ...parents }, overlapping)}) w`
    : `SELECT range_agg(tstzrange(w.starts_at, w.ends_at)) AS ranges
         FROM ${t.equipment} we
         JOIN ${t.rooms} wr ON wr.id = we.room_id
         CROSS JOIN LATERAL (${coveringWindowsSql(
           t,
           { equipment: 'we.id', room: 'we.room_id', building: 'wr.building_id' },
           overlapping,
         )}) w
        WHERE we.id = ${equipment}`;
  // Without a window (the usual case) a span's seconds are its length; with one, the lengths of
  // what the windows leave of it (multirange difference, PostgreSQL 14+).
  return `
  SELECT sum(c.seconds) FILTER (WHERE c.status = 'active') AS up,
         sum(c.seconds) FILTER (WHERE c.status IN ('inactive', 'partial')) AS down
    FROM (
      SELECT s.status,
             CASE WHEN m.ranges IS NULL THEN EXTRACT(EPOCH FROM p.until - p.since)
                  ELSE (SELECT COALESCE(sum(EXTRACT(EPOCH FROM upper(k) - lower(k))), 0)
                          FROM unnest(tstzmultirange(tstzrange(p.since, p.until)) - m.ranges) k)
             END AS seconds
        FROM ${t.spans} s
        CROSS JOIN LATERAL (
          SELECT GREATEST(s.started_at, ${from}) AS since, LEAST(COALESCE(s.ended_at, ${to}), ${to}) AS until
        ) p
        CROSS JOIN (${windows}) m
       WHERE s.equipment_id = ${equipment} AND s.started_at < ${to} AND (s.ended_at IS NULL OR s.ended_at > ${from})
    ) c`;
};

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The report's figures from up and down seconds: a percentage of up + down, null with neither. */
export function uptimeFigures(upSeconds: number, downSeconds: number) {
  const observed = upSeconds + downSeconds;
  return {
    uptimePercent: observed > 0 ? round((upSeconds / observed) * 100, 1) : null,
    uptimeHours: round(upSeconds / 3600, 2),
    downtimeHours: round(downSeconds / 3600, 2),
  };
}

/** A line of the report as its SQL answers it (uptimeRowsSql). */
export type UptimeRow = Omit<
  EquipmentUptime,
  'uptimePercent' | 'uptimeHours' | 'downtimeHours' | 'lastUpdated'
> & {
  lastUpdated: Date;
  upSeconds: number;
  downSeconds: number;
};

/** The report's line of a row: its uptime figures, its time as ISO text. */
export function uptimeOf<R extends Omit<UptimeRow, 'equipmentId' | 'buildingId' | 'roomId'>>({
  upSeconds,
  downSeconds,
  lastUpdated,
  ...row
}: R) {
  return {
    ...row,
    ...uptimeFigures(upSeconds, downSeconds),
    lastUpdated: new Date(lastUpdated).toISOString(),
  };
}

/**
 * Every equipment with the time it spent up and down within [`from`, `to`) (parameter
 * placeholders): the report's rows (UptimeRow), to be filtered and ordered by the caller. Read
 * through the spans' (equipment, start) key, equipment by equipment.
 */
export const uptimeRowsSql = (t: Tables, from: string, to: string) => `
  SELECT e.id AS "equipmentId", b.id AS "buildingId", b.name AS "buildingName", r.id AS "roomId",
         r.name AS "roomName", e.name, e.type, e.ip_address AS "ipAddress", e.status,
         GREATEST(st.status_at, e.updated_at) AS "lastUpdated",
         COALESCE(u.up, 0)::float8 AS "upSeconds", COALESCE(u.down, 0)::float8 AS "downSeconds"
    FROM ${t.equipment} e
    JOIN ${t.rooms} r ON r.id = e.room_id
    JOIN ${t.buildings} b ON b.id = r.building_id
    JOIN ${t.state} st ON st.equipment_id = e.id
    LEFT JOIN LATERAL (${uptimeSecondsSql(t, 'e.id', from, to, { room: 'r.id', building: 'b.id' })}
    ) u ON true`;

/**
 * The whole report in equipment order in one query, over the columns `columns` (SQL over the
 * report's row `x`): the CSV's cells (uptime-csv.ts), or the plain columns the report's figures
 * come from. From and to as SQL (parameter placeholders or literals).
 */
export const uptimeReportSql = (t: Tables, columns: string, from: string, to: string) => `
  SELECT ${columns}
    FROM (${uptimeRowsSql(t, from, to)}) x
   ORDER BY x."equipmentId"`;

/**
 * The report's query as the CSV's lines need it, without the ids (a third of what PostgreSQL would
 * send) and unformatted, $1 from, $2 to: what bench/reports runs once as its reference.
 */
export const uptimeCsvSql = (t: Tables) =>
  uptimeReportSql(
    t,
    `x."buildingName", x."roomName", x.name, x.type, x."ipAddress", x.status, x."lastUpdated",
     x."upSeconds", x."downSeconds"`,
    '$1',
    '$2',
  );
