import { type SessionUser } from '@cm/contracts';
import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { SessionUsers } from '../identity/session-users';
import { ApiTokenRepository } from '../tokens/api-token.repository';
import { SessionStore } from './session-store';
import { renewSessionVersion } from './session.middleware';

/**
 * Deletes the sessions an account change made void from the table every replica reads, so that
 * they end at once everywhere. The access guard's version check refuses them anyway (also after a
 * change no gateway made): a failure here is logged, not answered, since the change itself is done.
 */
@Injectable()
export class AccountSessions {
  private readonly logger = new Logger(AccountSessions.name);

  constructor(
    private readonly sessions: SessionStore,
    private readonly users: SessionUsers,
    private readonly tokens: ApiTokenRepository,
  ) {}

  /** After a change of `user`: when it is the caller's own account, the caller's session stays. */
  async changed(req: Request, { user, sessionVersion }: SessionUser): Promise<void> {
    const own = req.session.userId === user.id;
    await this.attempt(async () => {
      // Renewed before the user is read again: a request of the caller's that finds the new
      // version must find it on their session row too, or the access guard ends the session.
      if (own && req.session.sessionVersion !== sessionVersion)
        await renewSessionVersion(req, sessionVersion);
    }, user.id);
    // Auth tells every replica of most changes too; this one need not wait for the notice.
    this.users.drop(user.id);
    await this.attempt(
      () => this.sessions.deleteOutdated(user.id, sessionVersion, own ? req.sessionID : undefined),
      user.id,
    );
  }

  async deleted(userId: string): Promise<void> {
    this.users.drop(userId);
    await this.attempt(async () => {
      await this.sessions.deleteOutdated(userId, null);
      // Refused already (their user is gone): this only leaves no orphans behind.
      await this.tokens.deleteAllOf(userId);
    }, userId);
  }

  private async attempt(work: () => Promise<void>, userId: string): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.logger.warn(
        `Sessions of user ${userId} not deleted (the access guard still refuses them): ${String(error)}`,
      );
    }
  }
}
