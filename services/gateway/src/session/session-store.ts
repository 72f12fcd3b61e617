import { CONFIG, schemaName } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import { Pool } from 'pg';
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

/**
 * Sessions in the gateway schema's `sessions` table (created by its migration), so that they
 * survive a restart and every replica sees them.
 */
@Injectable()
export class SessionStore implements OnApplicationShutdown {
  private readonly logger = new Logger(SessionStore.name);
  private readonly pool: Pool;
  private readonly table: string;
  readonly store: session.Store;

  constructor(@Inject(CONFIG) config: Config) {
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
    this.store = new PgStore({
      pool: this.pool,
      schemaName: schema,
      tableName: 'sessions',
      createTableIfMissing: false,
      pruneSessionInterval: PRUNE_INTERVAL_S,
      errorLog: (...args: unknown[]) => this.logger.warn(args.map(String).join(' ')),
    });
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
  }

  async onApplicationShutdown(): Promise<void> {
    await (this.store as session.Store & { close(): Promise<void> }).close();
    await this.pool.end();
  }
}
