import { type ApiRouteDef } from '@cm/contracts';
import {
  applyDecorators,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { auditOf } from '../audit/audited-routes';
import { AuditInterceptor } from '../audit/audit.interceptor';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { API_ROUTE } from './api-route.key';

/**
 * Routes a controller method by its contract entry. The same entry drives validation
 * (applyRouteContract), access checks, the audit log, Idempotency-Key handling and the OpenAPI
 * document.
 */
export function ApiRoute(route: ApiRouteDef): MethodDecorator {
  const decorators = [
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    SetMetadata(API_ROUTE, route),
    HttpCode(route.status ?? 200),
  ];
  // Each only on the routes it serves: an interceptor costs every request it is on (an
  // observable chain and an async resource), and most requests are reads of no concern to either.
  // The audit's is outside the idempotency's, so it sees a create answered again from the first.
  if (auditOf(route)) decorators.push(UseInterceptors(AuditInterceptor));
  if (route.idempotent) decorators.push(UseInterceptors(IdempotencyInterceptor));
  return applyDecorators(...decorators);
}
