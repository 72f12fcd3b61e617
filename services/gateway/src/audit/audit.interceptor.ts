import { randomUUID } from 'node:crypto';
import { type ApiRouteDef, ErrorCode, IDEMPOTENT_REPLAY_HEADER, type User } from '@cm/contracts';
import { activeTraceId, RpcClient } from '@cm/platform';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  Logger,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { from, type Observable, throwError } from 'rxjs';
import { catchError, mergeMap, switchMap } from 'rxjs/operators';
import { type SignedInRequest } from '../auth/current-user';
import { API_ROUTE } from '../http/api-route.key';
import { ApiTokenRepository } from '../tokens/api-token.repository';
import { changedFields, valuesOf } from './audit-values';
import { type NewAuditEntry, AuditRepository } from './audit.repository';
import { auditOf, type AuditedRoute } from './audited-routes';

const requestIdShape = /^[A-Za-z0-9._:-]{1,128}$/;
/** The sign-in refusals worth an entry: a wrong guess, or a guesser held back. */
const refusedSignIn = new Set<string>([
  ErrorCode.INVALID_CREDENTIALS,
  ErrorCode.TOO_MANY_ATTEMPTS,
  ErrorCode.TOTP_INVALID,
  ErrorCode.TOTP_CHALLENGE_EXPIRED,
]);

/**
 * Writes the audit log for the routes in `auditedRoutes`, every administrator's use of an admin
 * route, and sign-ins. An entry is written after the change succeeded and before the answer goes
 * out; a failure to write it is logged, not answered (the change itself is done).
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  private readonly logger = new Logger(AuditInterceptor.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly entries: AuditRepository,
    private readonly rpc: RpcClient,
    private readonly tokens: ApiTokenRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    const req = context.switchToHttp().getRequest<SignedInRequest>();
    const audited = route && auditOf(route);
    if (!route || !audited) return next.handle();
    if (audited === 'sign-in') return this.signIn(req, next);
    const param = req.params?.[audited.idParam ?? 'id'];
    const id = typeof param === 'string' ? param : undefined;
    return from(this.readBefore(audited, id)).pipe(
      switchMap((before) =>
        next.handle().pipe(
          mergeMap(async (reply: unknown) => {
            // A retried create answered from the first one's result changed nothing this time.
            if (!req.res?.getHeader(IDEMPOTENT_REPLAY_HEADER))
              await this.write(req, this.entryOf(route, audited, id, before, reply, req.body));
            return reply;
          }),
        ),
      ),
    );
  }

  private async readBefore(audited: AuditedRoute, id: string | undefined): Promise<unknown> {
    if (!audited.before || !id) return null;
    // Not found, or its owner not answering: the change itself will say so, or go ahead without it.
    return audited.before({ rpc: this.rpc, tokens: this.tokens }, id).catch(() => null);
  }

  private entryOf(
    route: ApiRouteDef,
    audited: AuditedRoute,
    id: string | undefined,
    before: unknown,
    reply: unknown,
    body: unknown,
  ): Omit<NewAuditEntry, 'actorId' | 'actorName' | 'apiTokenId' | 'requestId' | 'clientAddress' | 'at'> {
    const { entityType, action } = audited;
    if (entityType === 'route')
      return { entityType, action, entityId: `${route.method} ${route.path}`, before: null, after: null };
    const after = 'keepsReply' in audited && audited.keepsReply ? reply : null;
    const replyId = (valuesOf(reply)?.id as string | undefined) ?? null;
    const entityId = action === 'create' ? replyId : (id ?? null);
    if (action === 'update') return { entityType, action, entityId, ...changedFields(before, after, body) };
    return { entityType, action, entityId, before: valuesOf(before), after: valuesOf(after) };
  }

  private signIn(req: SignedInRequest, next: CallHandler): Observable<unknown> {
    const username = (req.body as { username?: unknown } | undefined)?.username;
    const attempted = typeof username === 'string' ? username.slice(0, 64) : null;
    return next.handle().pipe(
      mergeMap(async (user: User | { totpRequired: true }) => {
        // The password was right, and the code is still to come: the second step is the sign-in.
        if ('totpRequired' in user) return user;
        req.user = user;
        await this.write(req, {
          action: 'sign-in',
          entityType: 'session',
          entityId: user.id,
          before: null,
          after: null,
        });
        return user;
      }),
      catchError((error: { code?: string }) =>
        from(
          refusedSignIn.has(error.code ?? '')
            ? this.write(req, {
                action: 'sign-in-failed',
                entityType: 'session',
                entityId: null,
                before: null,
                after: { username: attempted, reason: error.code },
              })
            : Promise.resolve(),
        ).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }

  private async write(
    req: SignedInRequest,
    entry: Omit<NewAuditEntry, 'actorId' | 'actorName' | 'apiTokenId' | 'requestId' | 'clientAddress' | 'at'>,
  ): Promise<void> {
    const failedSignIn = entry.action === 'sign-in-failed';
    try {
      await this.entries.insert({
        ...entry,
        at: new Date(),
        actorId: failedSignIn ? null : (req.user?.id ?? null),
        actorName: failedSignIn
          ? ((entry.after?.username as string | null) ?? null)
          : (req.user?.username ?? null),
        apiTokenId: req.apiTokenId ?? null,
        requestId: requestIdOf(req),
        clientAddress: (req.ip ?? 'unknown').slice(0, 64),
      });
    } catch (error) {
      this.logger.error(
        `Audit entry not written (${entry.action} ${entry.entityType} ${entry.entityId ?? ''}): ${String(error)}`,
      );
    }
  }
}

/**
 * The request's id: one the client or a proxy sent (X-Request-Id), else the trace's, else a new one;
 * answered in X-Request-Id so that a person can quote it.
 */
export function requestIdOf(req: SignedInRequest & { auditRequestId?: string }): string {
  if (req.auditRequestId) return req.auditRequestId;
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && requestIdShape.test(sent) ? sent : (activeTraceId() ?? randomUUID());
  req.auditRequestId = id;
  const res = req.res as Response | undefined;
  if (res && !res.headersSent) res.setHeader('X-Request-Id', id);
  return id;
}
