import { ErrorCode } from '../errors';
import { monitoringCheckResultSchema, monitoringStatusSchema } from '../monitoring';
import { type ApiRouteDef } from '../route-def';

/** The Monitoring tab of Settings: running state, Start, Stop and Check Now. */
export const monitoringRoutes = {
  monitoringStatus: {
    method: 'GET',
    path: '/api/monitoring/status',
    summary: 'Whether scheduled ping sweeps run, and their interval in milliseconds (30000 by default)',
    tag: 'Monitoring',
    access: 'user',
    response: monitoringStatusSchema,
  },
  startMonitoring: {
    method: 'POST',
    path: '/api/monitoring/start',
    summary: 'Start scheduled ping sweeps on every monitor replica; the state survives restarts',
    tag: 'Monitoring',
    access: 'user',
    response: monitoringStatusSchema,
  },
  stopMonitoring: {
    method: 'POST',
    path: '/api/monitoring/stop',
    summary: 'Stop scheduled ping sweeps on every monitor replica; a sweep under way finishes',
    tag: 'Monitoring',
    access: 'user',
    response: monitoringStatusSchema,
  },
  checkMonitoring: {
    method: 'POST',
    path: '/api/monitoring/check',
    summary:
      'Ping every equipment address once now, without changing the running state; answers when the sweep has finished, or 504 MONITOR.CHECK_INCOMPLETE after 25 s while it goes on',
    tag: 'Monitoring',
    access: 'user',
    response: monitoringCheckResultSchema,
    errors: [ErrorCode.CHECK_INCOMPLETE],
  },
} as const satisfies Record<string, ApiRouteDef>;
