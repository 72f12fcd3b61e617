import { type ApiRouteDef } from '@cm/contracts';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { type Observable } from 'rxjs';

/**
 * What the audit log does around a route. Declared here and provided by the audit module
 * (audit/), whose own routes `ApiRoute` routes too: routing names the log without importing it.
 */
export abstract class RouteAudit implements NestInterceptor {
  abstract intercept(context: ExecutionContext, next: CallHandler): Observable<unknown>;
}

/** `RouteAudit` as the interceptor `ApiRoute` puts on a route (Nest builds interceptors by class). */
@Injectable()
export class RouteAuditInterceptor implements NestInterceptor {
  constructor(private readonly audit: RouteAudit) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return this.audit.intercept(context, next);
  }
}

/**
 * The routes the audit log may write for: every change, and an administrator's every use (the
 * log decides which it writes; audited-routes.spec.ts checks that none lies outside).
 */
export const mayBeAudited = (route: ApiRouteDef): boolean =>
  route.method !== 'GET' || route.access === 'admin';
