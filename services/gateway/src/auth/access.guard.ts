import { type Access, type ApiRouteDef, authMessages, ErrorCode, messages } from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { API_ROUTE } from '../http/api-route.decorator';
import { endSession } from '../session/session.middleware';
import { type SignedInRequest } from './current-user';

/**
 * Access from the contract: each route's `access` decides; a handler without a contract entry
 * (such as /objects/…) needs a session. The user is read from the auth service on every request,
 * so a deactivated or deleted user, or a session from before a password change, loses access at once.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly rpc: RpcClient,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const route = this.reflector.get<ApiRouteDef | undefined>(API_ROUTE, context.getHandler());
    const access: Access = route?.access ?? 'user';
    if (access === 'public') return true;

    const req = context.switchToHttp().getRequest<SignedInRequest>();
    const userId = req.session?.userId;
    if (!userId) throw new AppError(ErrorCode.UNAUTHENTICATED, authMessages.unauthenticated);
    const found = await this.rpc
      .send(messages.auth.getSessionUser, { id: userId })
      .catch((error: AppError) => {
        if (error.code === ErrorCode.USER_NOT_FOUND) return null;
        throw error;
      });
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
    return true;
  }
}
