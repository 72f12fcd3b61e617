import { healthAnswerSchema, livenessSchema } from '../health';
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
    summary:
      'Readiness of this gateway process: its PostgreSQL pool and NATS connection answer and it is not stopping (503 otherwise); other services do not count. Only the status, but to a signed-in administrator, who gets the checks',
    tag: 'Operations',
    access: 'public',
    identifiesViewer: true,
    response: healthAnswerSchema,
  },
  systemStatus: {
    method: 'GET',
    path: '/api/status/system',
    summary:
      'The whole system: every service over NATS with its own dependencies, and the gateway; 503 while anything is down. Only the status, but to a signed-in administrator, who gets the checks naming what is down',
    tag: 'Operations',
    access: 'public',
    identifiesViewer: true,
    response: healthAnswerSchema,
  },
  docs: {
    method: 'GET',
    path: '/api/docs',
    summary: 'This OpenAPI document',
    tag: 'Operations',
    access: 'public',
  },
  openApiDocument: {
    method: 'GET',
    path: '/api/openapi.json',
    summary: 'This OpenAPI document, under the name tools look for',
    tag: 'Operations',
    access: 'public',
  },
  apiReference: {
    method: 'GET',
    path: '/api/reference',
    summary: 'This document as a page to read in a browser',
    tag: 'Operations',
    access: 'public',
    responseContentType: 'text/html',
  },
  apiReferenceScript: {
    method: 'GET',
    path: '/api/reference/redoc.js',
    summary: "The reference page's renderer (Redoc)",
    tag: 'Operations',
    access: 'public',
    responseContentType: 'text/javascript',
  },
} as const satisfies Record<string, ApiRouteDef>;
