import {
  type Access,
  type ApiRouteDef,
  apiTokenMessages,
  apiTokenScopeRefused,
  authMessages,
  ErrorCode,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_ROUTE } from '../http/api-route.key';
import { applyRouteContract } from '../http/route-contract';
import { SessionStore } from '../session/session-store';
import { endSession } from '../session/session.middleware';
import { ApiTokens } from '../tokens/api-tokens.service';
import { bearerOf } from '../security/bearer';
import { scopeCovers, scopeNeeded } from '../tokens/token-scope';
import { type SignedInRequest } from '../identity/current-user';
import { SessionUsers } from '../identity/session-users';

/**
 * Access from the contract: each route's `access` decides; a handler without a contract entry
 * (such as /objects/…) needs a session. Then, with access granted, the route's parameters and
 * body are parsed with its contract schemas (`applyRouteContract`). The user comes from SessionUsers, which auth's change
 * notices keep current: a deactivated, deleted or demoted user, or a session from before a
 * password change, loses access on every replica as soon as the notice arrives.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly users: SessionUsers,
    private readonly sessions: SessionStore,
    private readonly apiTokens: ApiTokens,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    const req = context.switchToHttp().getRequest<SignedInRequest>();
    const bearer = bearerOf(req);
    if (bearer === undefined) await this.checkAccess(route, req, context);
    else await this.checkToken(route, bearer, req);
    if (route) applyRouteContract(route, req);
    return true;
  }

  /**
   * A bearer token stands for its user, with no session and no cookie: the session is not read
   * even when the request carries one. The token is checked first, so that one that is no longer
   * valid is a 401 everywhere; then its scope (see scopeNeeded). Never on the token routes themselves, so that a leaked token
   * cannot make more tokens, or outlive its own revocation.
   */
  private async checkToken(
    route: ApiRouteDef | undefined,
    bearer: string,
    req: SignedInRequest,
  ): Promise<void> {
    const access = route?.access ?? 'user';
    if (access === 'public') {
      if (route?.identifiesViewer) await this.identifyViewer(req, bearer);
      return;
    }
    const { user, token } = await this.apiTokens.authenticate(bearer);
    if (route?.path.startsWith('/api/tokens'))
      throw new AppError(ErrorCode.FORBIDDEN, apiTokenMessages.notForTokens);
    req.user = user;
    req.apiTokenId = token.id;
    // The one place a token's scope is enforced: by the route's access and the request's method.
    const needs = scopeNeeded(access, req.method);
    if (!scopeCovers(token.scope, needs))
      throw new AppError(ErrorCode.FORBIDDEN, apiTokenScopeRefused(token.scope, needs));
    if (access === 'admin' && user.role !== 'admin')
      throw new AppError(ErrorCode.FORBIDDEN, authMessages.forbidden);
  }

  private async checkAccess(
    route: ApiRouteDef | undefined,
    req: SignedInRequest,
    context: ExecutionContext,
  ): Promise<void> {
    const access: Access = route?.access ?? 'user';
    if (access === 'public') {
      if (route?.identifiesViewer) await this.identifyViewer(req);
      return;
    }
    const userId = req.session?.userId;
    if (!userId) throw new AppError(ErrorCode.UNAUTHENTICATED, authMessages.unauthenticated);
    const found = await this.users.get(userId);
    if (found && found.sessionVersion !== req.session.sessionVersion) {
      // The kept session row may be from before another replica renewed this very session (its
      // user changed their own password there): the table decides.
      const stored = await this.sessions.storedVersion(req.sessionID);
      if (stored === found.sessionVersion) req.session.sessionVersion = stored;
    }
    // A password change or a deactivation since sign-in raised the version: this session is over,
    // also after a reactivation.
    if (!found || found.user.isActive !== 1 || found.sessionVersion !== req.session.sessionVersion) {
      await endSession(req, context.switchToHttp().getResponse());
      throw new AppError(ErrorCode.UNAUTHENTICATED, authMessages.unauthenticated);
    }
    const { user } = found;
    req.user = user;
    if (access === 'admin' && user.role !== 'admin')
      throw new AppError(ErrorCode.FORBIDDEN, authMessages.forbidden);
  }

  /**
   * Who asks a public route that answers administrators more, when the request says and it holds:
   * anything else (no session, an ended one, an unknown token, auth not answering) is anybody.
   */
  private async identifyViewer(req: SignedInRequest, bearer?: string): Promise<void> {
    try {
      if (bearer !== undefined) {
        const { user, token } = await this.apiTokens.authenticate(bearer);
        req.user = user;
        req.apiTokenId = token.id;
        return;
      }
      const userId = req.session?.userId;
      if (!userId) return;
      const found = await this.users.get(userId);
      if (found?.user.isActive === 1 && found.sessionVersion === req.session.sessionVersion)
        req.user = found.user;
    } catch {
      // Answered as anybody's.
    }
  }
}
