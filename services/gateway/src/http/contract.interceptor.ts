import { type ApiRouteDef } from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { type Observable } from 'rxjs';
import { API_ROUTE } from './api-route.decorator';

/** Validates path parameters and the JSON body with the route's contract schemas before the handler runs. */
@Injectable()
export class ContractInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    if (route) {
      const request = context.switchToHttp().getRequest<Request>();
      if (route.params)
        request.params = new ZodPipe(route.params).transform(request.params) as Request['params'];
      if (route.body) request.body = new ZodPipe(route.body).transform(request.body ?? {});
    }
    return next.handle();
  }
}
