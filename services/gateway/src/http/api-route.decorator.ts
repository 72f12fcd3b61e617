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

export const API_ROUTE = Symbol('API_ROUTE');

/**
 * Routes a controller method by its contract entry. The same entry drives validation
 * (applyRouteContract), access checks, Idempotency-Key handling and the OpenAPI document.
 */
export function ApiRoute(route: ApiRouteDef): MethodDecorator {
  const decorators = [
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    SetMetadata(API_ROUTE, route),
    HttpCode(route.status ?? 200),
  ];
  // Only on the creates that take a key: an interceptor costs every request it is on.
  if (route.idempotent) decorators.push(UseInterceptors(IdempotencyInterceptor));
  return applyDecorators(...decorators);
}
