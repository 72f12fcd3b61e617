import { createHash, randomInt } from 'node:crypto';
import {
  authMessages,
  ErrorCode,
  type RecoveryCodes,
  type SessionUser,
  type TotpCodeMessage,
  type TotpProofMessage,
  type TotpSetup,
  totpMessages,
  type TotpStatus,
} from '@cm/contracts';
import { AppError, CONFIG, openSecret, sealSecret } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { Secret, TOTP } from 'otpauth';
import { type Config } from '../config';
import { PasswordHasher } from './password-hasher';
import { UserChanges } from './user-changes';
import { type UserEntity } from './user.entity';
import { UserRepository } from './user.repository';
import { toSessionUser } from './users.service';

const ISSUER = 'Classroom Monitor';
const PERIOD_S = 30;
const RECOVERY_CODES = 10;
/** Without letters and digits that look alike (0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const invalid = () => new AppError(ErrorCode.TOTP_INVALID, totpMessages.invalidCode);
const state = (message: string) => new AppError(ErrorCode.TOTP_STATE, message);

/** RFC 6238 as every authenticator app reads an otpauth URL: SHA-1, 6 digits, 30 seconds. */
const totpOf = (secret: string, label: string) =>
  new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });

/** A recovery code as typed: `xxxxx-xxxxx`, 10 characters of 31 (about 50 bits). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/**
 * Recovery codes are random enough that a fast hash suffices; the user id makes the same code
 * of two users hash differently. The code arrives normalised (no dashes, lower case).
 */
const hashRecoveryCode = (userId: string, code: string) =>
  createHash('sha256')
    .update(`${userId}:${code.replace(/[\s-]/g, '').toLowerCase()}`)
    .digest('hex');

/** The additional data of a sealed secret: it opens only in its own user's row. */
const owner = (userId: string) => `totp:${userId}`;

/**
 * Two-factor sign-in (TOTP, RFC 6238) of local accounts. The secret is kept sealed with
 * AUTH_TOTP_KEY; a code is accepted one step early or late (clock drift), and only for a time
 * step later than the last one accepted, so a code seen once cannot be used again.
 */
@Injectable()
export class TotpService {
  private readonly key: Buffer | undefined;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly changes: UserChanges,
  ) {
    this.key = config.AUTH_TOTP_KEY;
  }

  async status(userId: string): Promise<Omit<TotpStatus, 'required'>> {
    const user = await this.user(userId);
    return {
      enabled: Boolean(user.totpSecret),
      recoveryCodesLeft: user.totpSecret ? user.totpRecoveryCodes.length : 0,
      available: this.key !== undefined,
    };
  }

  /** A new secret waiting for its first code; one started before is replaced. */
  async setup(userId: string): Promise<TotpSetup> {
    const user = await this.user(userId);
    if (user.externalSubject !== null)
      throw new AppError(ErrorCode.EXTERNAL_ACCOUNT, authMessages.externalTotp);
    const key = this.requireKey();
    if (user.totpSecret) throw state(totpMessages.alreadyEnabled);
    const secret = new Secret({ size: 20 }).base32;
    await this.users.setTotp(userId, { totpPendingSecret: sealSecret(key, secret, owner(userId)) });
    return { secret, otpauthUrl: totpOf(secret, user.username).toString() };
  }

  async enable({ userId, code }: TotpCodeMessage): Promise<RecoveryCodes> {
    this.requireKey();
    const user = await this.user(userId);
    if (user.totpSecret) throw state(totpMessages.alreadyEnabled);
    if (!user.totpPendingSecret) throw state(totpMessages.notStarted);
    const pending = this.open(user.totpPendingSecret, userId, totpMessages.notStarted);
    const step = this.acceptedStep(pending, user.username, code);
    if (step === null) throw invalid();
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    // Only the pending secret that was checked becomes the secret (not one a second setup wrote since).
    const affected = await this.users.setTotp(
      userId,
      {
        totpSecret: user.totpPendingSecret,
        totpPendingSecret: null,
        totpLastStep: String(step),
        totpRecoveryCodes: recoveryCodes.map((c) => hashRecoveryCode(userId, c)),
      },
      { totpPendingSecret: user.totpPendingSecret },
    );
    if (!affected) throw state(totpMessages.notStarted);
    await this.changes.announce(userId);
    return { recoveryCodes };
  }

  /** Sign-in's second step: the user, when the account is active and the code right and unused. */
  async verify({ userId, code }: TotpCodeMessage): Promise<SessionUser> {
    const user = await this.users.findById(userId);
    if (!user || user.isActive !== 1 || !user.totpSecret) throw invalid();
    if (!(await this.useCode(user, code))) throw invalid();
    return toSessionUser(user);
  }

  async disable(proof: TotpProofMessage): Promise<Omit<TotpStatus, 'required'>> {
    await this.prove(proof);
    return this.reset(proof.userId);
  }

  /** Two-factor sign-in off, recovery codes gone; an administrator's reset needs no proof. */
  async reset(userId: string): Promise<Omit<TotpStatus, 'required'>> {
    await this.user(userId);
    await this.users.setTotp(userId, {
      totpSecret: null,
      totpPendingSecret: null,
      totpLastStep: null,
      totpRecoveryCodes: [],
    });
    await this.changes.announce(userId);
    return this.status(userId);
  }

  async regenerateRecoveryCodes(proof: TotpProofMessage): Promise<RecoveryCodes> {
    await this.prove(proof);
    const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.users.setTotp(proof.userId, {
      totpRecoveryCodes: recoveryCodes.map((c) => hashRecoveryCode(proof.userId, c)),
    });
    return { recoveryCodes };
  }

  /** The owner proves it with a current code (or a recovery code, then used up) or the password. */
  private async prove({ userId, code, password }: TotpProofMessage): Promise<void> {
    const user = await this.user(userId);
    if (!user.totpSecret) throw state(totpMessages.notEnabled);
    if (code) {
      if (!(await this.useCode(user, code))) throw invalid();
    } else if (!password || !user.passwordHash || !(await this.hasher.verify(user.passwordHash, password))) {
      throw new AppError(ErrorCode.TOTP_INVALID, totpMessages.wrongPassword);
    }
  }

  /** Accepts a 6-digit code once (its step must be later than the last used) or a recovery code once. */
  private async useCode(user: UserEntity, code: string): Promise<boolean> {
    if (/^\d{6}$/.test(code)) {
      const step = this.acceptedStep(
        this.open(user.totpSecret!, user.id, totpMessages.unreadable),
        user.username,
        code,
      );
      if (step === null) return false;
      return this.users.useTotpStep(user.id, step);
    }
    return this.users.useRecoveryCode(user.id, hashRecoveryCode(user.id, code));
  }

  /** The time step a code is right for, one step of drift either way, or null. */
  private acceptedStep(secret: string, username: string, code: string): number | null {
    const now = Date.now();
    const delta = totpOf(secret, username).validate({ token: code, timestamp: now, window: 1 });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
  }

  /** A sealed secret; refused with `message` when the key is gone or another than it was sealed with. */
  private open(sealed: string, userId: string, message: string): string {
    if (!this.key) throw new AppError(ErrorCode.TOTP_UNAVAILABLE, message);
    try {
      return openSecret(this.key, sealed, owner(userId));
    } catch {
      throw new AppError(ErrorCode.TOTP_UNAVAILABLE, message);
    }
  }

  private requireKey(): Buffer {
    if (!this.key) throw new AppError(ErrorCode.TOTP_UNAVAILABLE, totpMessages.unavailable);
    return this.key;
  }

  private async user(userId: string): Promise<UserEntity> {
    const user = await this.users.findById(userId);
    if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND, authMessages.userNotFound);
    return user;
  }
}
