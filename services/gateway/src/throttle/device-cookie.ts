import { createHmac, randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Config } from '../config';
import { cookieValue, keyFor, sameSecret } from '../security/cookies';

import { throttleName } from './login-throttle.service';

export const DEVICE_COOKIE = 'cm.device';

/**
 * OWASP's device cookies: a browser that signed in as a user gets a cookie holding a random device
 * id and a MAC binding it to that user. A sign-in that presents it for the same username is
 * throttled by that device's own failures only, so that nobody else's guesses lock that browser
 * out. The username is in the MAC only, never in the cookie: whoever reads the cookie (a shared
 * computer, a log) learns nothing of who signed in. The cookie is sent to the sign-in route only.
 */
@Injectable()
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.key = keyFor(config.SESSION_SECRET, 'cm.device cookie');
  }

  /** The device id of a valid cookie issued for `username`, or null. */
  deviceOf(req: Request, username: string): string | null {
    const value = cookieValue(req.headers.cookie, DEVICE_COOKIE);
    const [device, mac, ...rest] = value?.split('.') ?? [];
    if (!device || !mac || rest.length) return null;
    return sameSecret(mac, this.sign(device, username)) ? device : null;
  }

  /** A new device cookie for `username`; a browser keeps one, for whoever signed in last. */
  issue(req: Request, res: Response, username: string): void {
    const device = randomBytes(18).toString('base64url');
    res.cookie(DEVICE_COOKIE, `${device}.${this.sign(device, username)}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/api/login',
      maxAge: this.config.LOGIN_DEVICE_COOKIE_DAYS * 86_400_000,
    });
  }

  private sign(device: string, username: string): string {
    return createHmac('sha256', this.key)
      .update(`${device}.${throttleName(username)}`)
      .digest('base64url');
  }
}
