import { createHmac } from 'node:crypto';
import { ErrorCode, type SessionUser, type TotpChallenge, totpMessages } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';
import { keyFor, sameSecret } from '../security/cookies';
import { type Clock, LOGIN_CLOCK } from './login-throttle.service';

/** How long after the password the code may be entered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

interface Claims {
  /** The user id. */
  u: string;
  /** The username, for the throttle's counters. */
  n: string;
  /** The session version at the password: a password change since voids the challenge. */
  v: number;
  /** Expiry, ms since the epoch. */
  e: number;
}

const expired = () => new AppError(ErrorCode.TOTP_CHALLENGE_EXPIRED, totpMessages.challengeExpired);

/**
 * What POST /api/login answers an account with two-factor sign-in instead of a session: the user
 * and the time, signed, so that no replica has to keep anything between the two steps. It proves
 * only that the password was right a moment ago; the code (checked by auth, once) completes it.
 */
@Injectable()
export class TotpChallenges {
  private readonly key: Buffer;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGIN_CLOCK) private readonly clock: Clock,
  ) {
    this.key = keyFor(config.SESSION_SECRET, 'cm.totp challenge');
  }

  issue({ user, sessionVersion }: SessionUser): TotpChallenge {
    const claims: Claims = {
      u: user.id,
      n: user.username,
      v: sessionVersion,
      e: this.clock.now() + CHALLENGE_TTL_MS,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { totpRequired: true, challenge: `${payload}.${this.sign(payload)}` };
  }

  /** The challenge's user, id, name and session version; refused when forged or too old. */
  open(challenge: string): { userId: string; username: string; sessionVersion: number } {
    const [payload, signature, ...rest] = challenge.split('.');
    if (!payload || !signature || rest.length || !sameSecret(signature, this.sign(payload))) throw expired();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
    if (claims.e <= this.clock.now()) throw expired();
    return { userId: claims.u, username: claims.n, sessionVersion: claims.v };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
