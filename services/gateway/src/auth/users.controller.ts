import {
  apiRoutes,
  messages,
  type RouteBody,
  type RouteParams,
  type User,
  type UserListItem,
} from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Param, Req } from '@nestjs/common';
import type { Request } from 'express';
import { requestIdOf } from '../audit/audit-log';
import { ApiRoute } from '../http/api-route.decorator';
import { AccountSessions } from '../session/account-sessions.service';
import { CurrentUser } from '../identity/current-user';
import { LoginThrottle, throttleName } from '../throttle/login-throttle.service';

/** User Management: the access guard has already checked that the caller is an administrator. */
@Controller()
export class UsersController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly throttle: LoginThrottle,
    private readonly sessions: AccountSessions,
  ) {}

  @ApiRoute(apiRoutes.listUsers)
  async list(): Promise<UserListItem[]> {
    const [users, locked] = await Promise.all([
      this.rpc.send(messages.auth.listUsers, {}),
      this.throttle.lockedUsernames(),
    ]);
    return users.map((user) => ({ ...user, signInLocked: locked.has(throttleName(user.username)) }));
  }

  // The request id lets the audit log tell auth's account event of this change from one sent past the gateway.
  @ApiRoute(apiRoutes.createUser)
  create(
    @Body() user: RouteBody<typeof apiRoutes.createUser>,
    @CurrentUser() actor: User,
    @Req() req: Request,
  ): Promise<User> {
    return this.rpc.send(messages.auth.createUser, { actorId: actor.id, user, requestId: requestIdOf(req) });
  }

  @ApiRoute(apiRoutes.updateUser)
  async update(
    @Param() { id }: RouteParams<typeof apiRoutes.updateUser>,
    @Body() changes: RouteBody<typeof apiRoutes.updateUser>,
    @CurrentUser() actor: User,
    @Req() req: Request,
  ): Promise<User> {
    const changed = await this.rpc.send(messages.auth.updateUser, {
      actorId: actor.id,
      id,
      changes,
      requestId: requestIdOf(req),
    });
    await this.sessions.changed(req, changed);
    return changed.user;
  }

  @ApiRoute(apiRoutes.deleteUser)
  async delete(
    @Param() { id }: RouteParams<typeof apiRoutes.deleteUser>,
    @CurrentUser() actor: User,
  ): Promise<void> {
    await this.rpc.send(messages.auth.deleteUser, { actorId: actor.id, id });
    await this.sessions.deleted(id);
  }

  @ApiRoute(apiRoutes.clearSignInLock)
  async clearSignInLock(@Param() { id }: RouteParams<typeof apiRoutes.clearSignInLock>): Promise<void> {
    const user = await this.rpc.send(messages.auth.getUser, { id });
    await this.throttle.clear(user.username);
  }
}
