import { type ApiRouteDef } from '@cm/contracts';
import {
  applyDecorators,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { API_ROUTE } from './api-route.key';
import { mayBeAudited, RouteAuditInterceptor } from './route-audit';
import { VersionInterceptor } from './versions';

/**
 * Routes a controller method by its contract entry. The same entry drives validation
 * (applyRouteContract), access checks, the audit log, Idempotency-Key handling, ETags and the
 * OpenAPI document.
 */
export function ApiRoute(route: ApiRouteDef): MethodDecorator {
  const decorators = [
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    SetMetadata(API_ROUTE, route),
    HttpCode(route.status ?? 200),
  ];
  // Each only on the routes it may serve: an interceptor costs every request it is on (an
  // observable chain and an async resource), and most requests are reads of no concern to either.
  // The audit's is outside the idempotency's, so it sees a create answered again from the first.
  if (mayBeAudited(route)) decorators.push(UseInterceptors(RouteAuditInterceptor));
  // Outside the idempotency's too: an edit answered again from the first still carries its ETag.
  // A read tags its answer itself (withVersionTag), without an interceptor's cost.
  if (route.versioned && route.method !== 'GET') decorators.push(UseInterceptors(VersionInterceptor));
  if (route.idempotent) decorators.push(UseInterceptors(IdempotencyInterceptor));
  return applyDecorators(...decorators);
}
