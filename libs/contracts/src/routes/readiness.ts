import { z } from 'zod';
import { type ApiRouteDef } from '../route-def';
import { readinessClassSchema, readinessHttpQuerySchema } from '../readiness';

/** Readiness before classes (the "Before class" screen; docs/operations.md). */
export const readinessRoutes = {
  listReadiness: {
    method: 'GET',
    path: '/api/readiness',
    summary:
      'Classes starting from–to (default: the next 12 hours), soonest first, each with its room: ready, at risk (why) or not checked',
    tag: 'Class schedules',
    access: 'user',
    query: readinessHttpQuerySchema,
    response: z.array(readinessClassSchema),
  },
} as const satisfies Record<string, ApiRouteDef>;
