import { apiRoutes, type Login, messages, type User } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { Body, Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiRoute } from '../http/api-route.decorator';
import { SessionStore } from '../session/session-store';
import { endSession, startSession } from '../session/session.middleware';
import { CurrentUser } from './current-user';
import { LoginThrottle, TooManyAttempts } from './login-throttle.service';

@Controller()
export class AuthController {
  constructor(
    private readonly rpc: RpcClient,
    private readonly throttle: LoginThrottle,
    private readonly sessions: SessionStore,
  ) {}

  @ApiRoute(apiRoutes.login)
  async login(
    @Body() body: Login,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<User> {
    const signedIn = await this.throttle
      .attempt(body.username, req.ip ?? 'unknown', () => this.rpc.send(messages.auth.login, body))
      .catch((error: unknown) => {
        if (error instanceof TooManyAttempts) res.setHeader('Retry-After', String(error.retryAfterSeconds));
        throw error;
      });
    await startSession(req, signedIn, this.sessions.now());
    return signedIn.user;
  }

  @ApiRoute(apiRoutes.currentUser)
  currentUser(@CurrentUser() user: User): User {
    return user;
  }

  @ApiRoute(apiRoutes.logout)
  async logout(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await endSession(req, res);
  }

  @ApiRoute(apiRoutes.logoutNavigation)
  async logoutNavigation(@Req() req: Request, @Res() res: Response): Promise<void> {
    await endSession(req, res);
    res.redirect(303, '/');
  }
}
