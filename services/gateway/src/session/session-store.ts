import { randomBytes } from 'node:crypto';
import { messages } from '@cm/contracts';
import {
  CONFIG,
  execute,
  poolRunner,
  queryChanged,
  queryRow,
  RpcClient,
  schemaName,
  type SqlRunner,
} from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { Pool } from 'pg';
import { NoticedCache } from '../identity/noticed-cache';
import { type Config } from '../config';

/** What a session row holds about its user; the user is re-read on every request, so nothing else. */
export interface SessionData {
  /** The signed-in user. */
  userId: string;
  /** The user's session version at sign-in (auth raises it to end their sessions). */
  sessionVersion: number;
  /** When the user signed in (ms since the epoch): the session ends SESSION_ABSOLUTE_HOURS later. */
  signedInAt: number;
}

/** A session row as read: the expiry in ms since the epoch. */
export interface StoredSession {
  data: Partial<SessionData>;
  expire: number;
}

/** How often expired rows are deleted (jittered per replica, so replicas do not prune together). */
const PRUNE_INTERVAL_MS = 15 * 60_000;
/** A session's expiry is written again once it would move by this much (at most a minute). */
export const renewAfterMs = (idleMs: number) => Math.min(60_000, idleMs / 100);

/**
 * How long a session row read from the table is used without reading it again. Replicas tell
 * each other when they delete sessions (`auth.session.ended`), so this bounds only a notice lost
 * without the connection dropping; the access guard re-reads a kept row before refusing it.
 */
export const SESSION_ROW_TTL_MS = 5_000;

type Rows = NoticedCache<StoredSession, typeof messages.auth.sessionsEnded>;

/**
 * Sessions in the gateway schema's `sessions` table (created by its migration), so that they
 * survive a restart and every replica sees them. A row is `sid`, `sess` (JSON: the user, the
 * session version, the sign-in time) and `expire`; rows read are kept SESSION_ROW_TTL_MS, so a
 * signed-in request costs no query, and the expiry is written again only when it would move by
 * `renewAfterMs` or more.
 */
@Injectable()
export class SessionStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SessionStore.name);
  private readonly pool: Pool;
  private readonly db: SqlRunner;
  private readonly table: string;
  private readonly rows: Rows;
  private pruning?: NodeJS.Timeout;
  readonly idleMs: number;
  readonly absoluteMs: number;
  readonly renewAfterMs: number;
  /** What signs session ids in cookies. */
  readonly secret: string;

  constructor(
    @Inject(CONFIG) config: Config,
    private readonly rpc: RpcClient,
  ) {
    this.idleMs = Math.round(config.SESSION_MAX_AGE_HOURS * 3600 * 1000);
    this.absoluteMs = Math.round(config.SESSION_ABSOLUTE_HOURS * 3600 * 1000);
    this.renewAfterMs = renewAfterMs(this.idleMs);
    this.secret = config.SESSION_SECRET;
    this.pool = new Pool({
      connectionString: config.DATABASE_URL,
      max: config.DATABASE_POOL_MAX,
      connectionTimeoutMillis: 5000,
      statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
      application_name: 'classroom-monitor-gateway-sessions',
    });
    // An idle connection that breaks must not take the process down; the next query reconnects.
    this.pool.on('error', (error) => this.logger.warn(`Session pool connection lost: ${error.message}`));
    this.db = poolRunner(this.pool);
    this.table = `"${schemaName(config.CM_NAMESPACE, 'gateway')}".sessions`;
    this.rows = new NoticedCache(rpc, this.logger, {
      notice: messages.auth.sessionsEnded,
      ttlMs: SESSION_ROW_TTL_MS,
      what: 'ended sessions',
      staleBy:
        ({ id }) =>
        (_sid, row) =>
          row.data.userId === id,
    });
  }

  onApplicationBootstrap(): void {
    this.rows.start();
    const every = PRUNE_INTERVAL_MS * (0.75 + Math.random() / 2);
    this.pruning = setInterval(() => {
      this.prune().catch((error: unknown) => this.logger.warn(`Pruning sessions failed: ${String(error)}`));
    }, every).unref();
  }

  /** The clock of sign-in times and of the absolute lifetime (one per application, for tests). */
  now(): number {
    return Date.now();
  }

  /** The session as kept or read now, or null when there is none or it expired. */
  async load(sid: string): Promise<StoredSession | null> {
    const row = await this.rows.get(sid, async (key) => {
      const found = await queryRow<{ sess: Partial<SessionData>; expire: Date }>(
        this.db,
        `SELECT sess, expire FROM ${this.table} WHERE sid = $1 AND expire >= to_timestamp($2)`,
        [key, Math.ceil(Date.now() / 1000)],
      );
      return found ? { data: found.sess, expire: found.expire.getTime() } : null;
    });
    return row && row.expire >= Date.now() ? row : null;
  }

  /** A new session for a user who just signed in: its id, made here, and the expiry written. */
  async create(data: SessionData, expire: number): Promise<string> {
    const sid = randomBytes(24).toString('base64url');
    await execute(
      this.db,
      `INSERT INTO ${this.table} (sid, sess, expire) VALUES ($1, $2, to_timestamp($3))`,
      [sid, JSON.stringify(this.stored(data, expire)), Math.ceil(expire / 1000)],
    );
    return sid;
  }

  /** Writes the session's fields (its expiry unchanged). */
  async update(sid: string, data: SessionData, expire: number): Promise<void> {
    await execute(this.db, `UPDATE ${this.table} SET sess = $2 WHERE sid = $1`, [
      sid,
      JSON.stringify(this.stored(data, expire)),
    ]);
    this.rows.drop(sid);
  }

  /** Whether an expiry of `expire` moves the row's stored one enough to be written (see renewAfterMs). */
  renewalDue(stored: number, expire: number): boolean {
    // The row holds whole seconds.
    const next = Math.ceil(expire / 1000) * 1000;
    return next < stored || next - stored >= this.renewAfterMs;
  }

  /** Writes the session's new expiry. */
  async renew(sid: string, expire: number): Promise<void> {
    await execute(this.db, `UPDATE ${this.table} SET expire = to_timestamp($2) WHERE sid = $1`, [
      sid,
      Math.ceil(expire / 1000),
    ]);
    this.rows.drop(sid);
  }

  /** Deletes the session, and tells the other replicas that its user's sessions changed. */
  async destroy(sid: string): Promise<void> {
    const {
      rows: [row],
    } = await queryChanged<{ user_id: string | null }>(
      this.db,
      `DELETE FROM ${this.table} WHERE sid = $1 RETURNING user_id`,
      [sid],
    );
    this.rows.drop(sid);
    if (row?.user_id) await this.ended(row.user_id);
  }

  /** Deletes the rows whose expiry has passed (the table is never read for them anyway). */
  async prune(): Promise<void> {
    await execute(this.db, `DELETE FROM ${this.table} WHERE expire < to_timestamp($1)`, [
      Math.floor(Date.now() / 1000),
    ]);
  }

  /**
   * The session's version as the table holds it now, or null without a row: a kept row may be
   * from before this session was renewed on another replica after its own password change.
   */
  async storedVersion(sid: string): Promise<number | null> {
    this.rows.drop(sid);
    return (await this.load(sid))?.data.sessionVersion ?? null;
  }

  /**
   * The session's version as last read (kept up to SESSION_ROW_TTL_MS, dropped by notices), or
   * null once the row is gone or expired: what an open live stream checks at each keep-alive.
   */
  async keptVersion(sid: string): Promise<number | null> {
    return (await this.load(sid))?.data.sessionVersion ?? null;
  }

  /**
   * Deletes the user's sessions that were signed in under another session version than
   * `current` (with `current` null: all of them), except the one with id `keep`. The access
   * guard refuses such sessions anyway; deleting them ends them on every replica at once.
   */
  async deleteOutdated(userId: string, current: number | null, keep?: string): Promise<void> {
    await execute(
      this.db,
      `DELETE FROM ${this.table}
        WHERE user_id = $1
          AND ($2::integer IS NULL OR (sess->>'sessionVersion')::integer IS DISTINCT FROM $2)
          AND sid IS DISTINCT FROM $3`,
      [userId, current, keep ?? null],
    );
    await this.ended(userId);
  }

  /**
   * The row's JSON. The `cookie` is what express-session, which kept these rows before, needs to
   * read one: a gateway of the previous release, still running during a rolling upgrade, reads
   * the rows this one writes. It can go one release later.
   */
  private stored(data: SessionData, expire: number) {
    return {
      ...data,
      cookie: {
        originalMaxAge: this.idleMs,
        expires: new Date(expire).toISOString(),
        httpOnly: true,
        path: '/',
        sameSite: 'lax',
      },
    };
  }

  /** Sessions of this user were deleted: no replica may go on using a row it kept of them. */
  private async ended(userId: string): Promise<void> {
    // This replica's own notice comes back too, but later than the answer to this request.
    this.rows.dropWhere((_sid, row) => row.data.userId === userId);
    await this.rpc.notify(messages.auth.sessionsEnded, { id: userId }).catch((error: unknown) => {
      this.logger.warn(`Other replicas not told that sessions of user ${userId} ended: ${String(error)}`);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pruning);
    this.rows.stop();
    await this.pool.end();
  }
}
