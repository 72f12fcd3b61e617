import { CONFIG, schemaName } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import { Pool } from 'pg';
import { type Config } from '../config';

declare module 'express-session' {
  interface SessionData {
    /** The signed-in user; the user is re-read on every request, so nothing else is kept. */
    userId: string;
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
    this.store = new PgStore({
      pool: this.pool,
      schemaName: schemaName(config.CM_NAMESPACE, 'gateway'),
      tableName: 'sessions',
      createTableIfMissing: false,
      pruneSessionInterval: PRUNE_INTERVAL_S,
      errorLog: (...args: unknown[]) => this.logger.warn(args.map(String).join(' ')),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await (this.store as session.Store & { close(): Promise<void> }).close();
    await this.pool.end();
  }
}
