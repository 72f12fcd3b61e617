import { z } from 'zod';
import { healthReportSchema, livenessSchema } from './health';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route: anyone, any signed-in user, or administrators only. */
export type Access = 'public' | 'user' | 'admin';

export interface ApiRouteDef {
  method: HttpMethod;
  /** Express-style path: `/api/buildings/:id`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: z.ZodObject;
  body?: z.ZodType;
  /** Non-JSON bodies (multipart uploads) are described here instead of `body`. */
  bodyContentType?: string;
  response?: z.ZodType;
  /** Success status when it is not 200. */
  status?: number;
}

/**
 * The `/api` surface. The gateway routes each controller method by one of these entries,
 * validates with its schemas, checks its access level, and generates the OpenAPI
 * document from the same list: documentation and routing cannot disagree.
 */
export const apiRoutes = {
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

export type ApiRouteName = keyof typeof apiRoutes;
