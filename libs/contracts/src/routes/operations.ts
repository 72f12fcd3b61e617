import { healthReportSchema, livenessSchema } from '../health';
import { type ApiRouteDef } from '../route-def';

/** Probes and the API description: public, for load balancers and tools. */
export const operationsRoutes = {
  healthz: {
    method: 'GET',
    path: '/api/healthz',
    summary: 'Liveness: the gateway process answers',
    tag: 'Operations',
    access: 'public',
    response: livenessSchema,
  },
  readyz: {
    method: 'GET',
    path: '/api/readyz',
    summary: 'Readiness: every service answers over NATS and PostgreSQL is reachable (503 otherwise)',
    tag: 'Operations',
    access: 'public',
    response: healthReportSchema,
  },
  docs: {
    method: 'GET',
    path: '/api/docs',
    summary: 'This OpenAPI document',
    tag: 'Operations',
    access: 'public',
  },
} as const satisfies Record<string, ApiRouteDef>;
