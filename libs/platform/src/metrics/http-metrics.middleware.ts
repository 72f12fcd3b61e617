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

/** Counts and times every HTTP request by method, route pattern and status, when its response ends. */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeOf(req);
      platformMetrics.httpRequests.inc(1, { method: req.method, route, status: String(res.statusCode) });
      platformMetrics.httpDuration.observe(seconds, { method: req.method, route });
    });
    next();
  };
}
