import { ErrorCode } from '../errors';
import { monitoringCheckResultSchema, monitoringStatusSchema } from '../monitoring';
import { roomCheckResultSchema } from '../room-check';
import { roomIdParamsSchema } from '../rooms';
import { type ApiRouteDef } from '../route-def';

/** The Monitoring tab of Settings: running state, Start, Stop and Check Now; and one room's check. */
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
  checkRoom: {
    method: 'POST',
    path: '/api/rooms/:roomId/check',
    summary:
      "Ping and deep-probe only this room's equipment now, whether or not monitoring runs; answers each equipment's result (a silent address takes MONITOR_PING_TIMEOUT_MS × (retries + 1), a probe at most 1.5 s), recorded as a scheduled check's would be. 404 for an unknown room",
    tag: 'Monitoring',
    access: 'user',
    params: roomIdParamsSchema,
    response: roomCheckResultSchema,
  },
} as const satisfies Record<string, ApiRouteDef>;
