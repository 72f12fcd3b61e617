import { type ApiRouteDef } from '@cm/contracts';
import { applyDecorators, HttpCode, RequestMapping, RequestMethod, SetMetadata } from '@nestjs/common';

export const API_ROUTE = Symbol('API_ROUTE');

/**
 * Routes a controller method by its contract entry. The same entry drives validation
 * (applyRouteContract), access checks and the OpenAPI document.
 */
export function ApiRoute(route: ApiRouteDef): MethodDecorator {
  return applyDecorators(
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    SetMetadata(API_ROUTE, route),
    HttpCode(route.status ?? 200),
  );
}
