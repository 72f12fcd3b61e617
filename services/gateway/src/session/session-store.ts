import { messages } from '@cm/contracts';
import { CONFIG, RpcClient, schemaName } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import { Pool } from 'pg';
import { NoticedCache } from '../auth/noticed-cache';
import { type Config } from '../config';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user; the user is re-read on every request, so nothing else about them is kept. */
    userId: string;
    /** The user's session version at sign-in (auth raises it to end their sessions). */
    sessionVersion: number;
    /** When the user signed in (ms since the epoch): the session ends SESSION_ABSOLUTE_HOURS later. */
    signedInAt: number;
  }
}

const PgStore = connectPgSimple(session);
/** connect-pg-simple deletes expired rows this often (seconds, jittered per replica). */
const PRUNE_INTERVAL_S = 15 * 60;
/** A session's expiry is written again once it would move by this much (at most a minute). */
export const renewAfterMs = (idleMs: number) => Math.min(60_000, idleMs / 100);

/**
 * How long a session row read from the table is used without reading it again. Replicas tell
 * each other when they delete sessions (`auth.session.ended`), so this bounds only a notice lost
 * without the connection dropping; the access guard re-reads a kept row before refusing it.
 */
export const SESSION_ROW_TTL_MS = 5_000;

/** A session row as read: the expiry in ms since the epoch. */
interface StoredRow {
  sess: session.SessionData;
  expire: number;
}

type Rows = NoticedCache<StoredRow, typeof messages.auth.sessionsEnded>;

/**
 * The expiry the row holds, kept on the loaded session's cookie (which never serialises it), and
 * whether this request writes a new one: then, and only then, the cookie is sent again.
 */
export type LoadedCookie = session.Cookie & { storedExpiry?: number; renewDue?: boolean };

/** Whether the row's expiry would move by `renewAfter` or more (or earlier, at the absolute end). */
function renewalDue(cookie: LoadedCookie, renewAfter: number): boolean {
  const stored = cookie.storedExpiry;
  const expires = cookie.expires;
  if (stored === undefined || !expires) return true;
  // The row holds whole seconds.
  const next = Math.ceil(new Date(expires).getTime() / 1000) * 1000;
  return next < stored || next - stored >= renewAfter;
}

/**
 * connect-pg-simple writes a rolling session's expiry on every request: with many requests per
 * session that is a row update each. This store remembers, per request, the expiry the row holds,
 * and writes it only when it would move by `renewAfterMs` or more (or earlier, at the absolute
 * end). A session thus ends between a minute before and SESSION_MAX_AGE_HOURS after its last request.
 */
class RenewingPgStore extends PgStore {
  constructor(
    options: connectPgSimple.PGStoreOptions,
    private readonly pool: Pool,
    private readonly table: string,
    private readonly renewAfter: number,
    private readonly rows: Rows,
    private readonly ended: (userId: string) => Promise<void>,
  ) {
    super(options);
  }

  /** The row as the table holds it now, kept for the next requests of this session. */
  readRow(sid: string): Promise<StoredRow | null> {
    return this.rows.get(sid, async (key) => {
      const {
        rows: [row],
      } = await this.pool.query<{ sess: session.SessionData; expire: Date }>(
        `SELECT sess, expire FROM ${this.table} WHERE sid = $1 AND expire >= to_timestamp($2)`,
        [key, Math.ceil(Date.now() / 1000)],
      );
      return row ? { sess: row.sess, expire: row.expire.getTime() } : null;
    });
  }

  override get(sid: string, callback: (error: unknown, session?: session.SessionData | null) => void): void {
    this.readRow(sid).then(
      (row) => {
        if (!row || row.expire < Date.now()) return callback(null, null);
        // express-session changes what it is given: each request gets its own copy of the kept row.
        const cookie = row.sess.cookie && ({ ...row.sess.cookie, storedExpiry: row.expire } as LoadedCookie);
        callback(null, { ...row.sess, cookie });
      },
      (error: unknown) => callback(error),
    );
  }

  override set(sid: string, sess: session.SessionData, callback?: (error?: unknown) => void): void {
    super.set(sid, sess, (error?: unknown) => {
      this.rows.drop(sid);
      callback?.(error);
    });
  }

  override destroy(sid: string, callback?: (error?: unknown) => void): void {
    this.pool
      .query<{ user_id: string | null }>(`DELETE FROM ${this.table} WHERE sid = $1 RETURNING user_id`, [sid])
      .then(
        async ({ rows: [row] }) => {
          this.rows.drop(sid);
          if (row?.user_id) await this.ended(row.user_id);
          callback?.();
        },
        (error: unknown) => callback?.(error),
      );
  }

  /** Decided once per request, as it starts, so that the cookie and the row move together. */
  renewalDue(cookie: LoadedCookie): boolean {
    cookie.renewDue ??= renewalDue(cookie, this.renewAfter);
    return cookie.renewDue;
  }

  override touch(sid: string, sess: session.SessionData, callback?: (error?: unknown) => void): void {
    if (!this.renewalDue(sess.cookie as LoadedCookie)) return callback?.();
    // The kept row still has the old expiry: read it again rather than write again.
    super.touch(sid, sess, (error?: unknown) => {
      this.rows.drop(sid);
      callback?.(error);
    });
  }
}

/**
 * Sessions in the gateway schema's `sessions` table (created by its migration), so that they
 * survive a restart and every replica sees them.
 */
@Injectable()
export class SessionStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SessionStore.name);
  private readonly pool: Pool;
  private readonly table: string;
  private readonly rows: Rows;
  private readonly renewing: RenewingPgStore;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly rpc: RpcClient,
  ) {
    this.pool = new Pool({
      connectionString: config.DATABASE_URL,
      max: config.DATABASE_POOL_MAX,
      connectionTimeoutMillis: 5000,
      statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
      application_name: 'classroom-monitor-gateway-sessions',
    });
    // An idle connection that breaks must not take the process down; the next query reconnects.
    this.pool.on('error', (error) => this.logger.warn(`Session pool connection lost: ${error.message}`));
    const schema = schemaName(config.CM_NAMESPACE, 'gateway');
    this.table = `"${schema}".sessions`;
    // Every request reads its session: kept a few seconds, a row costs no query per request.
    this.rows = new NoticedCache(rpc, this.logger, {
      notice: messages.auth.sessionsEnded,
      ttlMs: SESSION_ROW_TTL_MS,
      what: 'ended sessions',
      staleBy:
        ({ id }) =>
        (_sid, row) =>
          row.sess.userId === id,
    });
    this.renewing = new RenewingPgStore(
      {
        pool: this.pool,
        schemaName: schema,
        tableName: 'sessions',
        createTableIfMissing: false,
        pruneSessionInterval: PRUNE_INTERVAL_S,
        errorLog: (...args: unknown[]) => this.logger.warn(args.map(String).join(' ')),
      },
      this.pool,
      this.table,
      renewAfterMs(config.SESSION_MAX_AGE_HOURS * 3600 * 1000),
      this.rows,
      (userId) => this.ended(userId),
    );
  }

  get store(): session.Store {
    return this.renewing;
  }

  /** Whether this request writes the session's new expiry (and so sends its cookie again). */
  renewalDue(cookie: session.Cookie): boolean {
    return this.renewing.renewalDue(cookie as LoadedCookie);
  }

  onApplicationBootstrap(): void {
    this.rows.start();
  }

  /**
   * The session's version as the table holds it now, or null without a row: a kept row may be
   * from before this session was renewed on another replica after its own password change.
   */
  async storedVersion(sid: string): Promise<number | null> {
    this.rows.drop(sid);
    return (await this.renewing.readRow(sid))?.sess.sessionVersion ?? null;
  }

  /**
   * The session's version as last read (kept up to SESSION_ROW_TTL_MS, dropped by notices), or
   * null once the row is gone or expired: what an open live stream checks at each keep-alive.
   */
  async keptVersion(sid: string): Promise<number | null> {
    return (await this.renewing.readRow(sid))?.sess.sessionVersion ?? null;
  }

  /** The clock of sign-in times and of the absolute lifetime (one per application, for tests). */
  now(): number {
    return Date.now();
  }

  /**
   * Deletes the user's sessions that were signed in under another session version than
   * `current` (with `current` null: all of them), except the one with id `keep`. The access
   * guard refuses such sessions anyway; deleting them ends them on every replica at once.
   */
  async deleteOutdated(userId: string, current: number | null, keep?: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM ${this.table}
        WHERE user_id = $1
          AND ($2::integer IS NULL OR (sess->>'sessionVersion')::integer IS DISTINCT FROM $2)
          AND sid IS DISTINCT FROM $3`,
      [userId, current, keep ?? null],
    );
    await this.ended(userId);
  }

  /** Sessions of this user were deleted: no replica may go on using a row it kept of them. */
  private async ended(userId: string): Promise<void> {
    // This replica's own notice comes back too, but later than the answer to this request.
    this.rows.dropWhere((_sid, row) => row.sess.userId === userId);
    await this.rpc.notify(messages.auth.sessionsEnded, { id: userId }).catch((error: unknown) => {
      this.logger.warn(`Other replicas not told that sessions of user ${userId} ended: ${String(error)}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.rows.stop();
    await this.renewing.close();
    await this.pool.end();
  }
}
