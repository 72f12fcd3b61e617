import { apiRoutes, type Login, messages, type User } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { SessionStore } from '../session/session-store';
import { endSession, startSession } from '../session/session.middleware';
import { SignOutTokens } from '../session/sign-out-token';
import { CurrentUser } from './current-user';
import { DeviceCookies } from './device-cookie';
import { LoginThrottle, TooManyAttempts } from './login-throttle.service';

@Controller()
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly throttle: LoginThrottle,
    private readonly signOutTokens: SignOutTokens,
    private readonly devices: DeviceCookies,
    private readonly sessions: SessionStore,
  ) {}

  @ApiRoute(apiRoutes.login)
  async login(
    @Body() body: Login,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<User> {
    const attempt = {
      username: body.username,
      client: req.ip ?? 'unknown',
      device: this.devices.deviceOf(req, body.username),
    };
    const signedIn = await this.throttle
      .attempt(attempt, () => this.rpc.send(messages.auth.login, body))
      .catch((error: unknown) => {
        if (error instanceof TooManyAttempts) res.setHeader('Retry-After', String(error.retryAfterSeconds));
        throw error;
      });
    this.devices.issue(req, res, body.username);
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
