import { context } from '@opentelemetry/api';
import type { NextFunction, Request, Response } from 'express';
import { platformMetrics } from './platform-metrics';

/**
 * The route label: Express's pattern (`/api/buildings/:id`) once a route matched, so that ids do
 * not multiply the series; everything else is one of two fixed labels.
 */
function routeOf(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
  return req.originalUrl.startsWith('/api') ? '(unmatched)' : '(static)';
}

export interface HttpMetricsOptions {
  /** Called once per request when its response ends (an access log), in the request's trace. */
  log?: (entry: { msg: string; method: string; route: string; status: number; ms: number }) => void;
}

/** Counts and times every HTTP request by method, route pattern and status, when its response ends. */
export function httpMetrics({ log }: HttpMetricsOptions = {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // 'finish' comes from the socket, outside the request's context: the log line is written in it.
    const requestContext = context.active();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req);
      const status = res.statusCode;
      platformMetrics.httpRequests.inc({ method: req.method, route, status: String(status) });
      platformMetrics.httpDuration.observe({ method: req.method, route }, seconds);
      if (log) {
        const ms = Math.round(seconds * 10_000) / 10;
        context.with(requestContext, () => log({ msg: 'request', method: req.method, route, status, ms }));
      }
    });
    next();
  };
}
