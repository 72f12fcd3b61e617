import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DeviceCookies } from './device-cookie';
import { LoginThrottle, TooManyAttempts } from './login-throttle.service';

/**
 * A password or two-factor code checked under the sign-in throttle (see LoginThrottle): at sign-in
 * and wherever a signed-in user proves who they are again. A refusal for waiting says when to come back.
 */
@Injectable()
export class ThrottledAttempts {
  constructor(
    private readonly throttle: LoginThrottle,
    private readonly devices: DeviceCookies,
  ) {}

  run<T>(
    req: Request,
    res: Response,
    username: string,
    /** `knownDevice`: the browser holds the username's device cookie (auth puts it first). */
    check: (attempt: { knownDevice: boolean }) => Promise<T>,
    { finished, code = false }: { finished?: (result: T) => boolean; code?: boolean } = {},
  ): Promise<T> {
    const attempt = {
      username,
      client: req.ip ?? 'unknown',
      device: this.devices.deviceOf(req, username),
      code,
    };
    const knownDevice = attempt.device !== null;
    return this.throttle
      .attempt(attempt, () => check({ knownDevice }), finished)
      .catch((error: unknown) => {
        if (error instanceof TooManyAttempts) res.setHeader('Retry-After', String(error.retryAfterSeconds));
        throw error;
      });
  }
}
