import { createHmac, randomBytes } from 'node:crypto';
import { ErrorCode, type SessionUser, type TotpChallenge, totpMessages } from '@cm/contracts';
import { AppError, CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type Config } from '../config';
import { keyFor, sameSecret } from '../security/cookies';
import { type Clock, LOGIN_CLOCK } from '../throttle/login-throttle.service';
import { SpentChallengeRepository } from './spent-challenge.repository';

/** How long after the password the code may be entered. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

interface Claims {
  /** A random id: a challenge signs in once, and is refused from then on (SpentChallengeRepository). */
  j: string;
  /** The user id. */
  u: string;
  /** The username, for the throttle's counters. */
  n: string;
  /** The session version at the password: a password change since voids the challenge. */
  v: number;
  /** Expiry, ms since the epoch. */
  e: number;
}

/** An open challenge: whose it is, and what `spend` needs. */
export interface OpenChallenge {
  userId: string;
  username: string;
  sessionVersion: number;
  id: string;
  expiresAt: number;
}

const expired = () => new AppError(ErrorCode.TOTP_CHALLENGE_EXPIRED, totpMessages.challengeExpired);

/**
 * What POST /api/login answers an account with two-factor sign-in instead of a session: the user
 * and the time, signed, so that no replica has to keep anything between the two steps. It proves
 * only that the password was right a moment ago; the code (checked by auth, once) completes it.
 * Once it has signed in it is spent, kept in PostgreSQL until it expires: otherwise whoever held
 * it could go on trying codes with it, without knowing the password.
 */
@Injectable()
export class TotpChallenges {
  private readonly key: Buffer;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(LOGIN_CLOCK) private readonly clock: Clock,
    private readonly spent: SpentChallengeRepository,
  ) {
    this.key = keyFor(config.SESSION_SECRET, 'cm.totp challenge');
  }

  issue({ user, sessionVersion }: SessionUser): TotpChallenge {
    const claims: Claims = {
      j: randomBytes(16).toString('base64url'),
      u: user.id,
      n: user.username,
      v: sessionVersion,
      e: this.clock.now() + CHALLENGE_TTL_MS,
    };
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return { totpRequired: true, challenge: `${payload}.${this.sign(payload)}` };
  }

  /** The challenge's user, id, name and session version; refused when forged, too old or spent. */
  async open(challenge: string): Promise<OpenChallenge> {
    const [payload, signature, ...rest] = challenge.split('.');
    if (!payload || !signature || rest.length || !sameSecret(signature, this.sign(payload))) throw expired();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Claims;
    // One issued before challenges had an id cannot be spent: it is refused like an old one.
    if (!claims.j || claims.e <= this.clock.now() || (await this.spent.isSpent(claims.j))) throw expired();
    return {
      userId: claims.u,
      username: claims.n,
      sessionVersion: claims.v,
      id: claims.j,
      expiresAt: claims.e,
    };
  }

  /** Called when the challenge signs in: refused if another sign-in used it first. */
  async spend(challenge: OpenChallenge): Promise<void> {
    const now = new Date(this.clock.now());
    if (!(await this.spent.spend(challenge.id, new Date(challenge.expiresAt), now))) throw expired();
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}
