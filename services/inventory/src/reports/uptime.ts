import { type Tables } from '../database/sql';

/**
 * Uptime as the report reckons it, in one place so that every figure of it agrees: each status
 * holds until the next (the spans), cut to the window (the span open at its start covers it, the
 * open one lasts until its end); active is up, inactive and partial down, maintenance neither.
 */

/**
 * SQL answering `up` and `down` seconds of the equipment `equipment` (an SQL expression) within
 * [`from`, `to`) (parameter placeholders), as one row.
 */
export const uptimeSecondsSql = (t: Tables, equipment: string, from: string, to: string) => `
  SELECT sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, ${to}), ${to}) - GREATEST(s.started_at, ${from})))
           FILTER (WHERE s.status = 'active') AS up,
         sum(EXTRACT(EPOCH FROM LEAST(COALESCE(s.ended_at, ${to}), ${to}) - GREATEST(s.started_at, ${from})))
           FILTER (WHERE s.status IN ('inactive', 'partial')) AS down
    FROM ${t.spans} s
   WHERE s.equipment_id = ${equipment} AND s.started_at < ${to} AND (s.ended_at IS NULL OR s.ended_at > ${from})`;

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
