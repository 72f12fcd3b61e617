import { type EquipmentUptime, uptimeCsvLine } from '@cm/contracts';
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

/** A row of the CSV's query (uptimeCsvSql): what its line shows, without the ids. */
export type UptimeCsvSqlRow = Omit<UptimeRow, 'equipmentId' | 'buildingId' | 'roomId'>;

/**
 * The CSV line of a row, as `uptimeCsvLine(uptimeOf(row))` writes it, with the line's object
 * spelled out: the rest-and-spread copy of every row was a quarter of inventory's CPU in a report
 * of 50,000 (docs/benchmarks.md).
 */
export function uptimeCsvLineOf(r: UptimeCsvSqlRow): string {
  const figures = uptimeFigures(r.upSeconds, r.downSeconds);
  return uptimeCsvLine({
    buildingName: r.buildingName,
    roomName: r.roomName,
    name: r.name,
    type: r.type,
    ipAddress: r.ipAddress,
    status: r.status,
    uptimePercent: figures.uptimePercent,
    uptimeHours: figures.uptimeHours,
    downtimeHours: figures.downtimeHours,
    lastUpdated: new Date(r.lastUpdated).toISOString(),
  });
}

/**
 * The whole report in equipment order in one query, the CSV's (read through a cursor): the
 * columns its lines show, not the ids, which would be a third of what PostgreSQL sends and
 * inventory parses. $1 from, $2 to.
 */
export const uptimeCsvSql = (t: Tables) => `
  SELECT x."buildingName", x."roomName", x.name, x.type, x."ipAddress", x.status, x."lastUpdated",
         x."upSeconds", x."downSeconds"
    FROM (${uptimeRowsSql(t, '$1', '$2')}) x
   ORDER BY x."equipmentId"`;
