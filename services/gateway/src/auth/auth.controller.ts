import {
  apiRoutes,
  ErrorCode,
  type LoginResult,
  messages,
  type RouteBody,
  type SessionUser,
  totpMessages,
  type User,
} from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { Body, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { SessionStore } from '../session/session-store';
import { endSession, startSession } from '../session/session.middleware';
import { SignOutTokens } from '../session/sign-out-token';
import { CurrentUser } from '../identity/current-user';
import { DeviceCookies } from '../throttle/device-cookie';
import { ThrottledAttempts } from '../throttle/throttled-attempts';
import { TotpChallenges } from './totp-challenge';

@Controller()
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly attempts: ThrottledAttempts,
    private readonly challenges: TotpChallenges,
    private readonly signOutTokens: SignOutTokens,
    private readonly devices: DeviceCookies,
    private readonly sessions: SessionStore,
  ) {}

  @ApiRoute(apiRoutes.login)
  async login(
    @Body() body: RouteBody<typeof apiRoutes.login>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginResult> {
    const signedIn = await this.attempts.run(
      req,
      res,
      body.username,
      ({ knownDevice }) => this.rpc.send(messages.auth.login, { ...body, knownDevice }),
      { finished: (found) => !found.user.totpEnabled },
    );
    // No session before the code: the challenge carries the first step to the second.
    if (signedIn.user.totpEnabled) return this.challenges.issue(signedIn);
    return this.signIn(req, res, signedIn);
  }

  /**
   * Sign-in's second step: codes are throttled with the passwords of the same username, and per
   * account; a challenge signs in once.
   */
  @ApiRoute(apiRoutes.loginTotp)
  async loginTotp(
    @Body() body: RouteBody<typeof apiRoutes.loginTotp>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<User> {
    const challenge = await this.challenges.open(body.challenge);
    const { userId, username, sessionVersion } = challenge;
    const signedIn = await this.attempts.run(
      req,
      res,
      username,
      async () => {
        const verified = await this.rpc.send(messages.auth.totpVerify, { userId, code: body.code });
        // The password changed (or the account was deactivated) since the first step.
        if (verified.sessionVersion !== sessionVersion)
          throw new AppError(ErrorCode.TOTP_CHALLENGE_EXPIRED, totpMessages.challengeExpired);
        await this.challenges.spend(challenge);
        return verified;
      },
      { code: true },
    );
    return this.signIn(req, res, signedIn);
  }

  /** The one place a session starts. */
  private async signIn(req: Request, res: Response, signedIn: SessionUser): Promise<User> {
    this.devices.issue(req, res, signedIn.user.username);
    await startSession(req, res, signedIn, this.sessions);
    return signedIn.user;
  }

  @ApiRoute(apiRoutes.currentUser)
  currentUser(@CurrentUser() user: User): User {
    return user;
  }

  @ApiRoute(apiRoutes.logout)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await endSession(req, res);
    this.signOutTokens.clear(res);
  }

  /**
   * A GET is what any link or stored picture address sends with the cookie, so it signs out only
   * with the session's sign-out token; without it the browser lands on / still signed in.
   */
  @ApiRoute(apiRoutes.logoutNavigation)
  async logoutNavigation(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (this.signOutTokens.proves(req)) {
      await endSession(req, res);
      this.signOutTokens.clear(res);
    }
    res.redirect(303, '/');
  }
}
