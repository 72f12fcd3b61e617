import { z } from 'zod';
import { healthStateSchema } from './device-health';
import { idSchema, timestampSchema } from './common';
import { equipmentStatusSchema } from './equipment';

/** The equipment timeline's default window: the 30 days before the call, as the uptime report's. */
export const HISTORY_DEFAULT_DAYS = 30;
/** The widest window one call may ask for: its spans and hours stay a small answer. */
export const HISTORY_MAX_DAYS = 90;

const DAY_MS = 86_400_000;

const instant = (name: 'from' | 'to') =>
  z
    .string({
      // `?from=a&from=b` arrives as an array: a different mistake from a bad date.
      error: () => `${name} must be given once`,
    })
    .pipe(
      z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
        error: () =>
          `${name} must be an ISO 8601 date or date and time, such as 2026-11-01 or 2026-11-01T08:00:00Z`,
      }),
    );

const rangeShape = { from: instant('from').optional(), to: instant('to').optional() };

/**
 * The window a request asks for, in epoch ms: `to` defaults to `now`, `from` to 30 days before
 * `to`. A date without a time is midnight UTC.
 */
export function historyWindow(
  range: { from?: string; to?: string },
  now: number,
): { from: number; to: number } {
  const to = range.to === undefined ? now : Date.parse(range.to);
  const from = range.from === undefined ? to - HISTORY_DEFAULT_DAYS * DAY_MS : Date.parse(range.from);
  return { from, to };
}

const checkedRange = <T extends z.ZodObject<typeof rangeShape>>(schema: T) =>
  schema.superRefine((range, ctx) => {
    const { from, to } = historyWindow(range, Date.now());
    if (to <= from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be later than from' });
    } else if (to - from > HISTORY_MAX_DAYS * DAY_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: `The range from ${new Date(from).toISOString()} to ${new Date(to).toISOString()} is longer than ${HISTORY_MAX_DAYS} days: ask for a shorter one`,
      });
    }
  });

/** `GET /api/equipment/{id}/history?from=&to=`: the window, each end optional (see historyWindow). */
export const historyQuerySchema = checkedRange(z.object(rangeShape));
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

/** gateway → inventory (`inventory.equipment.history`). */
export const historyRequestSchema = checkedRange(z.object({ id: idSchema, ...rangeShape }));
export type HistoryRequest = z.infer<typeof historyRequestSchema>;

/** One run of one status, cut to the window (the open one ends at the window's end or now). */
export const historySpanSchema = z.object({
  start: timestampSchema,
  end: timestampSchema,
  status: equipmentStatusSchema,
});
export type HistorySpan = z.infer<typeof historySpanSchema>;

const count = z.number().int().nonnegative();

/** Checks of one period: a check sends a ping to each of the equipment's addresses. */
const countersShape = {
  checks: count,
  /** Checks with at least one answering address. */
  answered: count,
  pings: count,
  pingsAnswered: count,
  /** Round trips of the answered checks; null when none answered. */
  rttMinMs: z.number().nullable(),
  rttMaxMs: z.number().nullable(),
  rttAvgMs: z.number().nullable(),
};

export const historyHourSchema = z.object({ hour: timestampSchema, ...countersShape });
export type HistoryHour = z.infer<typeof historyHourSchema>;

export const historyDaySchema = z.object({ day: z.iso.date(), ...countersShape });
export type HistoryDay = z.infer<typeof historyDaySchema>;

export const historySummarySchema = z.object({
  status: equipmentStatusSchema,
  /** When the current status was set, by a check or by a person. */
  statusSince: timestampSchema,
  /** Null until the monitor has checked it. */
  lastCheckedAt: timestampSchema.nullable(),
  /** Null when the last check had no answer (or there was none). */
  lastRttMs: z.number().nullable(),
  /**
   * Pings unanswered ÷ pings sent over the current UTC hour and the 23 before it (the hour
   * counters), as a percentage; null without a ping in that time.
   */
  loss24h: z.object({ pings: count, unanswered: count, percent: z.number().min(0).max(100).nullable() }),
  /**
   * Over the window, as the uptime report reckons it (each status holds until the next; active
   * is up, inactive and partial down, maintenance neither): the percentage of up + down time to
   * one decimal, null with no such time. With the default window it is the report's figure.
   */
  uptime: z.object({
    percent: z.number().min(0).max(100).nullable(),
    upHours: z.number().nonnegative(),
    downHours: z.number().nonnegative(),
  }),
});
export type HistorySummary = z.infer<typeof historySummarySchema>;

/** One run of one health state with its reasons, cut to the window (what a probe beyond ping read). */
export const healthSpanSchema = z.object({
  start: timestampSchema,
  end: timestampSchema,
  state: healthStateSchema,
  reasons: z.array(z.string()),
});
export type HealthSpan = z.infer<typeof healthSpanSchema>;

/** A firmware a probe found the device on: the version before (null the first time) and after. */
export const firmwareChangeSchema = z.object({
  at: timestampSchema,
  from: z.string().nullable(),
  to: z.string(),
});
export type FirmwareChange = z.infer<typeof firmwareChangeSchema>;

/**
 * An equipment's timeline over a window: its spans cut to the window, hour counters where they
 * are kept (from `hoursFrom` on), and day counters for the days before (hours are kept for a
 * shorter time than days).
 */
export const equipmentHistorySchema = z.object({
  equipmentId: idSchema,
  from: timestampSchema,
  to: timestampSchema,
  summary: historySummarySchema,
  spans: z.array(historySpanSchema),
  /** The first hour `hours` may hold: days before it are in `days`. */
  hoursFrom: timestampSchema,
  hours: z.array(historyHourSchema),
  days: z.array(historyDaySchema),
  /** Its health states over the window, for equipment probed beyond ping (else empty). */
  healthSpans: z.array(healthSpanSchema).optional(),
  /** Firmware changes within the window, oldest first. */
  firmware: z.array(firmwareChangeSchema).optional(),
});
export type EquipmentHistory = z.infer<typeof equipmentHistorySchema>;
