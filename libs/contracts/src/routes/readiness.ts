import { z } from 'zod';
import { type ApiRouteDef } from '../route-def';
import { ErrorCode } from '../errors';
import { readinessClassSchema } from '../readiness';
import { readinessSummarySettingsSchema } from '../readiness-summary';
import { roomScheduleQuerySchema } from '../schedules';

/** Readiness before classes (the "Before class" screen; docs/operations.md). */
export const readinessRoutes = {
  listReadiness: {
    method: 'GET',
    path: '/api/readiness',
    summary:
      'Classes starting from–to (default: the next 12 hours; at most 31 days), soonest first, each with its room: ready, at risk (why) or not checked',
    tag: 'Class schedules',
    access: 'user',
    // The schedules' range (from before to, at most SCHEDULE_QUERY_MAX_DAYS days): one rule, and
    // no second copy of it in the web app's entry chunk, which holds the route registry.
    query: roomScheduleQuerySchema,
    response: z.array(readinessClassSchema),
  },
  readinessSummary: {
    method: 'GET',
    path: '/api/readiness/summary',
    summary:
      'The morning summary: when it goes out (time null: never), in which time zone, to which channels',
    tag: 'Class schedules',
    access: 'admin',
    response: readinessSummarySettingsSchema,
  },
  setReadinessSummary: {
    method: 'PUT',
    path: '/api/readiness/summary',
    summary: "Set the morning summary's time, time zone and channels",
    tag: 'Class schedules',
    access: 'admin',
    body: readinessSummarySettingsSchema,
    response: readinessSummarySettingsSchema,
    errors: [ErrorCode.CHANNEL_NOT_FOUND],
  },
} as const satisfies Record<string, ApiRouteDef>;
