import { type Access, type ApiRouteDef, authMessages, ErrorCode } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_ROUTE } from '../http/api-route.decorator';
import { applyRouteContract } from '../http/route-contract';
import { SessionStore } from '../session/session-store';
import { endSession } from '../session/session.middleware';
import { type SignedInRequest } from './current-user';
import { SessionUsers } from './session-users';

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
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    const req = context.switchToHttp().getRequest<SignedInRequest>();
    await this.checkAccess(route?.access ?? 'user', req, context);
    if (route) applyRouteContract(route, req);
    return true;
  }

  private async checkAccess(access: Access, req: SignedInRequest, context: ExecutionContext): Promise<void> {
    if (access === 'public') return;
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
}
