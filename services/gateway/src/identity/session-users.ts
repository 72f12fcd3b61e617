import { ErrorCode, messages, type SessionUser } from '@cm/contracts';
import { type AppError, RpcClient } from '@cm/platform';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { NoticedCache } from './noticed-cache';

/**
 * How long a user read from auth is used without asking again. Change notices make it stale at
 * once; this bounds the damage of a notice lost without the connection dropping (auth lost its
 * connection right after the change was committed).
 */
export const SESSION_USER_TTL_MS = 5_000;

/**
 * The signed-in users as auth last described them, so that a request does not wait for a NATS
 * round trip to auth before its real call. Auth announces every change and deletion of a user
 * (`auth.user.changed`) to every gateway replica, which drops what it kept of them, so lost rights
 * are lost on every replica as soon as the notice arrives. Kept users are trusted only while this
 * replica is subscribed and connected: a lost connection drops them all, and until the
 * subscription is back every request asks auth, as it would without this cache.
 */
@Injectable()
export class SessionUsers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly cache: NoticedCache<SessionUser, typeof messages.auth.userChanged>;

  constructor(private readonly rpc: RpcClient) {
    this.cache = new NoticedCache(rpc, new Logger(SessionUsers.name), {
      notice: messages.auth.userChanged,
      ttlMs: SESSION_USER_TTL_MS,
      what: 'user changes',
      staleBy:
        ({ id }) =>
        (key) =>
          key === id,
    });
  }

  onApplicationBootstrap(): void {
    this.cache.start();
  }

  /** The user with their session version, or null when auth knows no such user. */
  get(id: string): Promise<SessionUser | null> {
    return this.cache.get(id, (key) =>
      this.rpc.send(messages.auth.getSessionUser, { id: key }).catch((error: AppError) => {
        if (error.code === ErrorCode.USER_NOT_FOUND) return null;
        throw error;
      }),
    );
  }

  /** What was kept of this user is out of date (this replica changed them, or auth said so). */
  drop(id: string): void {
    this.cache.drop(id);
  }

  onApplicationShutdown(): void {
    this.cache.stop();
  }
}
