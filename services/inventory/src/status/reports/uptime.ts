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
