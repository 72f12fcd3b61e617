import { envInt } from '@cm/platform';
import { z } from 'zod';

const zone = z
  .string()
  .default('UTC')
  .refine(
    (value) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: value });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone, such as America/New_York or Europe/London' },
  );

/** Class schedules' settings, validated at start-up with the rest of inventory's (docs/operations.md). */
export const schedulesEnv = {
  /** How often a feed is fetched while it works (with If-None-Match: an unchanged one costs a 304). */
  SCHEDULE_FEED_INTERVAL_MS: envInt(10_000, 24 * 3_600_000, 15 * 60_000),
  /** Every fetch gives up after this: connecting, the answer, and its whole body. */
  SCHEDULE_FETCH_TIMEOUT_MS: envInt(100, 120_000, 15_000),
  /** A failing feed is tried again after the interval, doubling with each failure up to this. */
  SCHEDULE_FEED_MAX_BACKOFF_MS: envInt(10_000, 7 * 24 * 3_600_000, 4 * 3_600_000),
  /** How often each replica looks for schedules due to be read (one replica reads each). */
  SCHEDULE_POLL_TICK_MS: envInt(1000, 3_600_000, 30_000),
  /** The zone of a CSV timetable's times and of a calendar's floating times (X-WR-TIMEZONE wins). */
  SCHEDULE_TIME_ZONE: zone,
};

/** An uploaded file is expanded afresh this often, so its classes stay 14 days ahead. */
export const FILE_REFRESH_MS = 6 * 3_600_000;

/** When a feed that failed `failures` times in a row is tried again: the interval, doubling, capped. */
export function backoffMs(failures: number, intervalMs: number, maxMs: number): number {
  return Math.min(Math.max(maxMs, intervalMs), intervalMs * 2 ** Math.min(Math.max(failures - 1, 0), 20));
}
