import { type ApiRouteDef } from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import type { Request } from 'express';

/**
 * Parses the path parameters, the query string and the JSON body with the route's contract schemas (a 400 with the
 * schema's message otherwise), once the access check has passed. The access guard calls it: a Nest
 * interceptor for it cost every request an interceptor chain (an async resource and observables).
 */
export function applyRouteContract(route: ApiRouteDef, request: Request): void {
  if (route.params) request.params = new ZodPipe(route.params).transform(request.params) as Request['params'];
  if (route.query) {
    // Express 5 reads `query` through a getter on every access, so the parsed value is set on the request itself.
    const query = new ZodPipe(route.query).transform(request.query);
    Object.defineProperty(request, 'query', {
      value: query,
      configurable: true,
      enumerable: true,
      writable: true,
    });
  }
  if (route.body) request.body = new ZodPipe(route.body).transform(request.body ?? {});
}
