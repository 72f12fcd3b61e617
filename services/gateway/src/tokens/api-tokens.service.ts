import { createHash, randomBytes } from 'node:crypto';
import {
  type ApiToken,
  type ApiTokenCreate,
  type ApiTokenCreated,
  apiTokenMaxDays,
  apiTokenMessages,
  apiTokenPrefix,
  ErrorCode,
  messages,
  roleOfScope,
  type User,
  type UserRole,
} from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SessionUsers } from '../identity/session-users';
import { ThrottledAttempts } from '../throttle/throttled-attempts';
import { ApiTokenRepository } from './api-token.repository';

/** A use is written at most this often: every request would make the hot path write. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const rank: Record<UserRole, number> = { user: 0, admin: 1 };
const dayMs = 24 * 3600 * 1000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token after its prefix: 32 random bytes, as base64url (no `+`, `/` or `=` to escape). */
const shape = new RegExp(`^${apiTokenPrefix}[A-Za-z0-9_-]{43}$`);

const invalid = () => new AppError(ErrorCode.UNAUTHENTICATED, apiTokenMessages.invalid);

@Injectable()
export class ApiTokens {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly users: SessionUsers,
    private readonly attempts: ThrottledAttempts,
    private readonly rpc: RpcClient,
  ) {}

  /**
   * A token of the scope asked for (read by default). The admin scope is an administrator's only,
   * and takes a current two-factor code when they have two-factor sign-in on: a token that can do
   * everything an administrator can should not be had with a stolen session alone. The code is
   * checked under the sign-in throttle (`req`, `res`: its counters and its Retry-After).
   */
  async create(
    creator: User,
    { name, scope = 'read', role, code, expiresAt }: ApiTokenCreate,
    req: Request,
    res: Response,
  ): Promise<ApiTokenCreated> {
    if (role && rank[role] > rank[creator.role])
      throw new AppError(ErrorCode.FORBIDDEN, apiTokenMessages.roleTooHigh);
    if (scope === 'admin' && creator.role !== 'admin')
      throw new AppError(ErrorCode.FORBIDDEN, apiTokenMessages.adminScopeForAdmins);
    const granted = roleOfScope(scope);
    if (role && role !== granted) throw fieldError('role', apiTokenMessages.roleFollowsScope);
    const now = Date.now();
    const expires = new Date(expiresAt);
    if (expires.getTime() <= now) throw fieldError('expiresAt', apiTokenMessages.expiryPast);
    if (expires.getTime() > now + apiTokenMaxDays * dayMs)
      throw fieldError('expiresAt', apiTokenMessages.expiryTooFar);
    if (scope === 'admin' && creator.totpEnabled) {
      if (!code) throw fieldError('code', apiTokenMessages.codeRequired);
      await this.attempts.run(req, res, creator.username, () =>
        this.rpc.send(messages.auth.totpVerify, { userId: creator.id, code }),
      );
    }
    const token = apiTokenPrefix + randomBytes(32).toString('base64url');
    const created = await this.tokens.create({
      userId: creator.id,
      name,
      role: granted,
      scope,
      hash: hashOf(token),
      createdAt: new Date(now),
      expiresAt: expires,
    });
    return { ...created, token };
  }

  list(owner: User): Promise<ApiToken[]> {
    return this.tokens.listOf(owner.id);
  }

  /** The owner revokes their own; an administrator anyone's (a leaked token of someone away). */
  async revoke(actor: User, id: string): Promise<void> {
    const token = await this.tokens.find(id);
    if (!token || (token.userId !== actor.id && actor.role !== 'admin'))
      throw new AppError(ErrorCode.NOT_FOUND, apiTokenMessages.notFound);
    await this.tokens.delete(id);
  }

  /**
   * The user a bearer token acts as, with the token's role when it is lower than the user's own
   * now (a demoted administrator's admin token acts as a user). Refused: a token unknown, revoked
   * or expired, and one whose user is deactivated or deleted.
   */
  async authenticate(bearer: string): Promise<{ user: User; token: ApiToken }> {
    if (!shape.test(bearer)) throw invalid();
    const token = await this.tokens.findByHash(hashOf(bearer));
    const now = Date.now();
    if (!token || new Date(token.expiresAt).getTime() <= now) throw invalid();
    const found = await this.users.get(token.userId);
    if (!found || found.user.isActive !== 1) throw invalid();
    const role = rank[token.role] < rank[found.user.role] ? token.role : found.user.role;
    const lastUsed = token.lastUsedAt ? new Date(token.lastUsedAt).getTime() : 0;
    if (now - lastUsed >= LAST_USED_RESOLUTION_MS)
      await this.tokens.touch(token.id, new Date(now), new Date(now - LAST_USED_RESOLUTION_MS));
    return { user: { ...found.user, role }, token };
  }

  /**
   * Whether a token that was valid still is: not revoked or expired, its user active. For what
   * outlives the request it came with (a live stream).
   */
  async stillValid(id: string): Promise<boolean> {
    const token = await this.tokens.find(id);
    if (!token || new Date(token.expiresAt).getTime() <= Date.now()) return false;
    const found = await this.users.get(token.userId);
    return found !== null && found.user.isActive === 1;
  }
}

function fieldError(path: string, message: string): AppError {
  return new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path, message }]);
}
