import { type ApiRouteDef, ErrorCode, IDEMPOTENT_REPLAY_HEADER, type User } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { type CallHandler, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, type Observable, throwError } from 'rxjs';
import { catchError, mergeMap, switchMap } from 'rxjs/operators';
import { type SignedInRequest } from '../identity/current-user';
import { API_ROUTE } from '../http/api-route.key';
import { type RouteAudit } from '../http/route-audit';
import { ApiTokenRepository } from '../tokens/api-token.repository';
import { changedFields, valuesOf } from './audit-values';
import { AuditLog, type AuditNote } from './audit-log';
import { auditOf, type AuditedRoute } from './audited-routes';

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
export class AuditInterceptor implements RouteAudit {
  constructor(
    private readonly reflector: Reflector,
    private readonly log: AuditLog,
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
    if (audited.writtenByHandler) return next.handle();
    const param = audited.ofSignedInUser ? req.user?.id : req.params?.[audited.idParam ?? 'id'];
    const id = typeof param === 'string' ? param : undefined;
    return from(this.read(audited.before, id)).pipe(
      switchMap((before) =>
        next.handle().pipe(
          mergeMap(async (reply: unknown) => {
            // A retried create answered from the first one's result changed nothing this time.
            if (!req.res?.getHeader(IDEMPOTENT_REPLAY_HEADER)) {
              const after = audited.after ? await this.read(audited.after, id) : reply;
              // A body beside a read entity is a proof (a code, the password), not a change.
              const body = audited.after ? undefined : req.body;
              await this.log.write(req, this.entryOf(route, audited, id, before, after, body));
            }
            return reply;
          }),
        ),
      ),
    );
  }

  private async read(of: AuditedRoute['before'], id: string | undefined): Promise<unknown> {
    if (!of || !id) return null;
    // Not found, or its owner not answering: the change itself will say so, or go ahead without it.
    return of({ rpc: this.rpc, tokens: this.tokens }, id).catch(() => null);
  }

  private entryOf(
    route: ApiRouteDef,
    audited: AuditedRoute,
    id: string | undefined,
    before: unknown,
    answered: unknown,
    body: unknown,
  ): AuditNote {
    const { entityType, action } = audited;
    if (entityType === 'route')
      return { entityType, action, entityId: `${route.method} ${route.path}`, before: null, after: null };
    const after = audited.after || audited.keepsReply ? answered : null;
    const replyId = (valuesOf(answered)?.id as string | undefined) ?? null;
    const entityId = action === 'create' ? replyId : (id ?? null);
    if (action === 'update')
      return { entityType, action, entityId, ...changedFields(before, after, body, audited.replacesSecrets) };
    return { entityType, action, entityId, before: valuesOf(before), after: valuesOf(after) };
  }

  private signIn(req: SignedInRequest, next: CallHandler): Observable<unknown> {
    const username = (req.body as { username?: unknown } | undefined)?.username;
    const attempted = typeof username === 'string' ? username.slice(0, 64) : null;
    return next.handle().pipe(
      mergeMap(async (user: User | { totpRequired: true }) => {
        // The password was right, and the code is still to come: the second step is the sign-in.
        if ('totpRequired' in user) return user;
        await this.log.signedIn(req, user);
        return user;
      }),
      catchError((error: { code?: string }) =>
        from(
          refusedSignIn.has(error.code ?? '')
            ? this.log.signInRefused(req, { username: attempted, reason: error.code })
            : Promise.resolve(),
        ).pipe(mergeMap(() => throwError(() => error))),
      ),
    );
  }
}
