import { apiRoutes } from '../../../lib/api-routes';
import { apiQuery } from '../../../lib/api';

/** The classes of the next 12 hours from `from` and their rooms' readiness, soonest first. */
export const readinessQuery = (from: string) =>
  apiQuery(apiRoutes.listReadiness, { from, to: new Date(Date.parse(from) + 12 * 3_600_000).toISOString() });
