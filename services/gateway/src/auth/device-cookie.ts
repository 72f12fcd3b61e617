import { createHmac, randomBytes } from 'node:crypto';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Config } from '../config';
import { cookieValue, keyFor, sameSecret } from '../security/cookies';

import { throttleName } from './login-throttle.service';

export const DEVICE_COOKIE = 'cm.device';

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/**
 * OWASP's device cookies: a browser that signed in as a user gets a signed cookie naming that
 * user and a random device id. A sign-in that presents it for the same username is throttled by
 * that device's own failures only, so that nobody else's guesses lock that browser out.
 * The cookie is sent to the sign-in route only.
 */
@Injectable()
export class DeviceCookies {
  private readonly key: Buffer;

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.key = keyFor(config.SESSION_SECRET, 'cm.device cookie');
  }

  /** The device id of a valid cookie naming `username`, or null. */
  deviceOf(req: Request, username: string): string | null {
    const value = cookieValue(req.headers.cookie, DEVICE_COOKIE);
    const [name, device, signature, ...rest] = value?.split('.') ?? [];
    if (!name || !device || !signature || rest.length) return null;
    if (!sameSecret(signature, this.sign(`${name}.${device}`))) return null;
    return Buffer.from(name, 'base64url').toString() === throttleName(username) ? device : null;
  }

  /** A new device cookie naming `username`; a browser keeps one, for whoever signed in last. */
  issue(req: Request, res: Response, username: string): void {
    const payload = `${b64(throttleName(username))}.${randomBytes(18).toString('base64url')}`;
    res.cookie(DEVICE_COOKIE, `${payload}.${this.sign(payload)}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure: req.secure,
      path: '/api/login',
      maxAge: this.config.LOGIN_DEVICE_COOKIE_DAYS * 86_400_000,
    });
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
