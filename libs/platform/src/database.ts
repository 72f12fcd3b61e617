import {
  type DynamicModule,
  forwardRef,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type * as Pg from 'pg';
import type * as TypeOrm from 'typeorm';
import type { DataSource, MigrationInterface, MixedList, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { runMain } from './bootstrap';
import { CONFIG, type CoreConfig, coreEnv, type DatabaseConfig, databaseEnv, parseEnv } from './config';
import { HealthService } from './health';
import { JsonLogger } from './logger';
import { poolRunner, type SqlRunner } from './typed-query';

/**
 * typeorm and pg, loaded when first used rather than with this package: every service loads it,
 * and the monitor, which has no database, held about 20 MiB more for them.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const typeorm = (): typeof TypeOrm => require('typeorm');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pg = (): typeof Pg => require('pg');

/** Each service owns one schema, named with the stack's namespace: `cm_inventory`. */
export function schemaName(namespace: string, service: string): string {
  return `${namespace}_${service}`;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Where a data source's options are read: the data source itself, or a migration's query runner. */
type HasDataSource = { options: object } | QueryRunner;

/** The unquoted name of the schema a service's data source is set to (for lock keys and messages). */
export function schemaNameOf(source: HasDataSource): string {
  const options = 'options' in source ? source.options : source.connection.options;
  const schema = (options as { schema?: string }).schema;
  if (!schema) throw new Error('The data source has no schema set');
  return schema;
}

/**
 * The quoted schema for raw SQL: migrations and queries never hard-code it and never rely on
 * search_path, so namespaces stay apart.
 */
export function schemaOf(source: HasDataSource): string {
  return quoteIdent(schemaNameOf(source));
}

/** One of the service's tables, qualified by its quoted schema: `"cm_gateway".api_tokens`. */
export function tableOf(source: HasDataSource, table: string): string {
  return `${schemaOf(source)}.${table}`;
}

/** PostgreSQL's `invalid_catalog_name`: the database named in the URL does not exist. */
const isMissingDatabase = (error: unknown) => (error as { code?: string })?.code === '3D000';

/**
 * Creates the database named in the URL when it is missing (a fresh machine or a new stack). It
 * connects to that database first: only when PostgreSQL answers that it does not exist does it
 * use the `postgres` maintenance database, which a site's account may not be allowed to reach.
 */
export async function ensureDatabase(url: string, timeoutMs = 5000): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  if (!database) return;
  const own = new (pg().Client)({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await own.connect();
    return;
  } catch (error) {
    if (!isMissingDatabase(error)) throw error;
  } finally {
    await own.end().catch(() => undefined);
  }
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new (pg().Client)({
    connectionString: maintenance.toString(),
    connectionTimeoutMillis: timeoutMs,
  });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${quoteIdent(database)}`).catch((error: { code?: string }) => {
      // Another process created it between our look and our create: 42P04 when its create had
      // committed, 23505 (on pg_database's name index) when both ran at once, as services do
      // when a whole system starts on a fresh machine.
      if (error.code !== '42P04' && error.code !== '23505') throw error;
    });
  } finally {
    await client.end();
  }
}

export interface ServiceDatabaseOptions {
  /** The owning service; its schema is `<namespace>_<service>`. */
  service: string;
  entities: MixedList<string | (new () => unknown)>;
  migrations: MixedList<string | (new () => unknown)>;
}

function serviceDataSource(
  url: string,
  schema: string,
  options: ServiceDatabaseOptions,
  extra: Record<string, unknown>,
): DataSource {
  return new (typeorm().DataSource)({
    type: 'postgres',
    url,
    schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    applicationName: `classroom-monitor-${options.service}`,
    extra: { connectionTimeoutMillis: 5000, ...extra },
  });
}

/**
 * Applies the data source's pending migrations under an advisory lock on the schema, so that
 * processes that start together run them once. Returns the names of those it applied.
 */
async function migrateUnderLock(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [schema]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [schema]).catch(() => undefined);
    await runner.release();
  }
}

/** The name typeorm records for a migration: its `name`, or its class name. */
const migrationName = (migration: MigrationInterface) => migration.name || migration.constructor.name;

/**
 * The migrations compiled into this service that its schema has not recorded yet, in order: all of
 * them while the schema or its migrations table does not exist. Migrations the schema has beyond
 * these (a newer release's, during its rollout) do not matter to this one.
 */
export async function pendingMigrations(dataSource: DataSource, schema: string): Promise<string[]> {
  let recorded: Set<string>;
  try {
    const rows = (await dataSource.query(`SELECT name FROM ${quoteIdent(schema)}.migrations`)) as {
      name: string;
    }[];
    recorded = new Set(rows.map((r) => r.name));
  } catch (error) {
    // 42P01: no migrations table yet; 3F000: no schema yet.
    const code = (error as { code?: string }).code;
    if (code !== '42P01' && code !== '3F000') throw error;
    recorded = new Set();
  }
  return dataSource.migrations.map(migrationName).filter((name) => !recorded.has(name));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often a pod in wait mode looks at the schema again. */
const MIGRATION_POLL_MS = 1000;
/** How often it says again what it waits for, when that has not changed. */
const MIGRATION_LOG_EVERY_MS = 10_000;

/**
 * DATABASE_MIGRATIONS=wait: opens the data source once the database exists and its schema has every
 * migration this service was built with, which a migration job applies (`main.js migrate`). It
 * says what it waits for, and gives up after `waitMs`, so that a pod restarts rather than hangs.
 */
async function waitForMigrations(
  dataSource: DataSource,
  database: string,
  schema: string,
  waitMs: number,
): Promise<void> {
  const logger = new Logger('Database');
  const deadline = Date.now() + waitMs;
  let said = '';
  let saidAt = 0;
  for (;;) {
    let waitingFor: string;
    if (!dataSource.isInitialized) {
      try {
        await dataSource.initialize();
      } catch (error) {
        if (!isMissingDatabase(error)) throw error;
      }
    }
    if (!dataSource.isInitialized) {
      waitingFor = `the database ${database} to be created`;
    } else {
      const pending = await pendingMigrations(dataSource, schema);
      if (pending.length === 0) {
        if (said) logger.log(`Schema ${schema} has every migration this release needs`);
        return;
      }
      waitingFor = `migration(s) ${pending.join(', ')} in schema ${schema}`;
    }
    if (Date.now() >= deadline) {
      if (dataSource.isInitialized) await dataSource.destroy();
      throw new Error(
        `Gave up after ${waitMs} ms waiting for ${waitingFor} (DATABASE_MIGRATIONS=wait). Run this ` +
          "release's migrations (`node dist/main.js migrate`, the chart's migration Job) or start with " +
          'DATABASE_MIGRATIONS=run.',
      );
    }
    if (waitingFor !== said || Date.now() - saidAt >= MIGRATION_LOG_EVERY_MS) {
      logger.log(`Waiting for ${waitingFor}, applied by the migration job (DATABASE_MIGRATIONS=wait)`);
      said = waitingFor;
      saidAt = Date.now();
    }
    await sleep(MIGRATION_POLL_MS);
  }
}

/**
 * Opens the service's data source. With DATABASE_MIGRATIONS=run (the default) it brings the schema
 * up to date first, under an advisory lock, so replicas that start together run the migrations
 * once; with `wait` it leaves that to a migration job and waits for it. `synchronize` is never used.
 */
export async function openServiceDatabase(
  config: CoreConfig & DatabaseConfig,
  options: ServiceDatabaseOptions,
): Promise<DataSource> {
  const schema = schemaName(config.CM_NAMESPACE, options.service);
  const dataSource = serviceDataSource(config.DATABASE_URL, schema, options, {
    max: config.DATABASE_POOL_MAX,
    statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  if (config.DATABASE_MIGRATIONS === 'wait') {
    const database = decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1));
    await waitForMigrations(dataSource, database, schema, config.DATABASE_MIGRATIONS_WAIT_MS);
    return dataSource;
  }
  await ensureDatabase(config.DATABASE_URL);
  await dataSource.initialize();
  await migrateUnderLock(dataSource, schema);
  return dataSource;
}

/**
 * Statements outside any transaction, run on the data source's own pg pool rather than through
 * TypeORM's query runner (a runner made, its pool checkout, event broadcast, logging and result
 * wrapping per statement, about 5 % of the inventory's CPU per read). Same pool, so the same
 * connections, limits and statement timeout; the answer is shaped as TypeORM's. A failure is pg's
 * error (its SQLSTATE in `code`, which `toErrorBody` reads either way), not a QueryFailedError.
 * Before the data source is open, and on a driver without a pool, it is TypeORM's own `query`.
 */
export function pooledRunner(dataSource: DataSource): SqlRunner {
  return {
    query(sql, parameters) {
      const pool = (dataSource.driver as { master?: Parameters<typeof poolRunner>[0] }).master;
      if (!dataSource.isInitialized || !pool) return dataSource.query(sql, parameters);
      return poolRunner(pool).query(sql, parameters);
    },
  };
}

/** What `main.js migrate` reads: the database and the schema's namespace, nothing of NATS. */
export const migrateEnvSchema = z.object({
  CM_NAMESPACE: coreEnv.CM_NAMESPACE,
  LOG_LEVEL: coreEnv.LOG_LEVEL,
  DATABASE_URL: databaseEnv.DATABASE_URL,
  /** The whole run, waiting for another migrating process included; past it the process exits 1. */
  DATABASE_MIGRATE_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .max(24 * 3_600_000)
    .default(600_000),
});
export type MigrateConfig = z.infer<typeof migrateEnvSchema>;

/**
 * Applies the service's migrations and closes: what a migration job runs. No statement timeout
 * (a migration may rewrite a large table); the run as a whole has DATABASE_MIGRATE_TIMEOUT_MS.
 * Returns the names of the migrations it applied.
 */
export async function migrateServiceDatabase(
  config: MigrateConfig,
  options: Pick<ServiceDatabaseOptions, 'service' | 'migrations'>,
): Promise<string[]> {
  const schema = schemaName(config.CM_NAMESPACE, options.service);
  await ensureDatabase(config.DATABASE_URL);
  const dataSource = serviceDataSource(
    config.DATABASE_URL,
    schema,
    { ...options, entities: [] },
    // 0: none, whatever the role or the database has set.
    { max: 2, options: '-c statement_timeout=0 -c lock_timeout=0' },
  );
  await dataSource.initialize();
  try {
    return await migrateUnderLock(dataSource, schema);
  } finally {
    await dataSource.destroy();
  }
}

/**
 * The entry point of `node dist/main.js migrate`: applies the service's migrations, logs what it
 * applied, and exits 0; 1 on any failure or past DATABASE_MIGRATE_TIMEOUT_MS (the migration in
 * flight then rolls back, as each runs in its own transaction).
 */
export function runMigrations(
  service: string,
  migrations: ServiceDatabaseOptions['migrations'],
  env: NodeJS.ProcessEnv = process.env,
): void {
  runMain(service, async () => {
    const config = parseEnv(migrateEnvSchema, env);
    const logger = new JsonLogger(service, config.LOG_LEVEL);
    const schema = schemaName(config.CM_NAMESPACE, service);
    const timer = setTimeout(() => {
      logger.error(
        `Migrating schema ${schema} took longer than ${config.DATABASE_MIGRATE_TIMEOUT_MS} ms ` +
          '(DATABASE_MIGRATE_TIMEOUT_MS); stopped. Another process may hold its migration lock.',
      );
      process.exit(1);
    }, config.DATABASE_MIGRATE_TIMEOUT_MS);
    const applied = await migrateServiceDatabase(config, { service, migrations });
    clearTimeout(timer);
    logger.log({
      msg: applied.length
        ? `Schema ${schema} migrated: ${applied.join(', ')}`
        : `Schema ${schema} was up to date`,
      schema,
      applied,
    });
    process.exit(0);
  });
}

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    @Inject(forwardRef(() => typeorm().DataSource)) private readonly dataSource: DataSource,
    health: HealthService,
  ) {
    health.register('postgres', async () => {
      await this.dataSource.query('SELECT 1');
    });
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
      this.logger.log('PostgreSQL connections closed');
    }
  }
}

/** Provides the service's `DataSource`, migrated, with a readiness check and a clean close. */
export class DatabaseModule {
  static forService(options: ServiceDatabaseOptions): DynamicModule {
    const { DataSource } = typeorm();
    return {
      module: DatabaseModule,
      global: true,
      providers: [
        {
          provide: DataSource,
          inject: [CONFIG],
          useFactory: (config: CoreConfig & DatabaseConfig) => openServiceDatabase(config, options),
        },
        DatabaseLifecycle,
      ],
      exports: [DataSource],
    };
  }
}
