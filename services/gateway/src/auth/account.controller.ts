import {
  apiRoutes,
  messages,
  type RecoveryCodes,
  type RouteBody,
  type RouteParams,
  type TotpSetup,
  type TotpStatus,
  type User,
} from '@cm/contracts';
import { CONFIG, RpcClient } from '@cm/platform';
import { Body, Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Config } from '../config';
import { ApiRoute } from '../http/api-route.decorator';
import { AccountSessions } from '../session/account-sessions.service';
import { CurrentUser } from '../identity/current-user';
import { SessionUsers } from '../identity/session-users';
import { ThrottledAttempts } from '../throttle/throttled-attempts';
import { mustEnrol } from './totp-enrolment.guard';

/** The signed-in user's own password and two-factor sign-in (the Account screen). */
@Controller()
export class AccountController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly attempts: ThrottledAttempts,
    private readonly users: SessionUsers,
    private readonly sessions: AccountSessions,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** A wrong current password counts as a failed sign-in: the session alone must not allow guessing. */
  @ApiRoute(apiRoutes.changePassword)
  async changePassword(
    @Body() body: RouteBody<typeof apiRoutes.changePassword>,
    @CurrentUser() user: User,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const changed = await this.attempts.run(req, res, user.username, () =>
      this.rpc.send(messages.auth.changePassword, { userId: user.id, ...body }),
    );
    await this.sessions.changed(req, changed);
  }

  @ApiRoute(apiRoutes.totpStatus)
  async status(@CurrentUser() user: User): Promise<TotpStatus> {
    const state = await this.rpc.send(messages.auth.totpStatus, { userId: user.id });
    return { ...state, required: mustEnrol(this.config, user) };
  }

  @ApiRoute(apiRoutes.totpSetup)
  setup(@CurrentUser() user: User): Promise<TotpSetup> {
    return this.rpc.send(messages.auth.totpSetup, { userId: user.id });
  }

  @ApiRoute(apiRoutes.totpEnable)
  async enable(
    @Body() body: RouteBody<typeof apiRoutes.totpEnable>,
    @CurrentUser() user: User,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RecoveryCodes> {
    const codes = await this.attempts.run(req, res, user.username, () =>
      this.rpc.send(messages.auth.totpEnable, { userId: user.id, code: body.code }),
    );
    // Auth tells every replica too; this one's next request (REQUIRE_ADMIN_TOTP) must not wait for it.
    this.users.drop(user.id);
    return codes;
  }

  @ApiRoute(apiRoutes.totpDisable)
  async disable(
    @Body() body: RouteBody<typeof apiRoutes.totpDisable>,
    @CurrentUser() user: User,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TotpStatus> {
    const state = await this.attempts.run(req, res, user.username, () =>
      this.rpc.send(messages.auth.totpDisable, { userId: user.id, ...body }),
    );
    this.users.drop(user.id);
    return { ...state, required: mustEnrol(this.config, { ...user, totpEnabled: state.enabled }) };
  }

  @ApiRoute(apiRoutes.totpRecoveryCodes)
  recoveryCodes(
    @Body() body: RouteBody<typeof apiRoutes.totpRecoveryCodes>,
    @CurrentUser() user: User,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RecoveryCodes> {
    return this.attempts.run(req, res, user.username, () =>
      this.rpc.send(messages.auth.totpRecoveryCodes, { userId: user.id, ...body }),
    );
  }

  /** User Management: the user lost their phone and their recovery codes. */
  @ApiRoute(apiRoutes.resetUserTotp)
  async resetUserTotp(@Param() { id }: RouteParams<typeof apiRoutes.resetUserTotp>): Promise<void> {
    await this.rpc.send(messages.auth.totpReset, { userId: id });
    this.users.drop(id);
  }
}
