import { type DynamicModule, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, type MixedList, type QueryRunner } from 'typeorm';
import { CONFIG, type CoreConfig, type DatabaseConfig } from './config';
import { HealthService } from './health';

/** Each service owns one schema, named with the stack's namespace: `cm_inventory`. */
export function schemaName(namespace: string, service: string): string {
  return `${namespace}_${service}`;
}

/** The schema a migration runs in: migrations never hard-code it, so namespaces stay apart. */
export function schemaOf(queryRunner: QueryRunner): string {
  const schema = (queryRunner.connection.options as { schema?: string }).schema;
  if (!schema) throw new Error('The data source has no schema set');
  return `"${schema}"`;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the database named in the URL when it is missing (a fresh machine or a new stack). */
export async function ensureDatabase(url: string, timeoutMs = 5000): Promise<void> {
  const target = new URL(url);
  const database = decodeURIComponent(target.pathname.slice(1));
  if (!database) return;
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: timeoutMs });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${quoteIdent(database)}`).catch((error: { code?: string }) => {
        // Another process created it between our check and our create: 42P04 when its create had
        // committed, 23505 (on pg_database's name index) when both ran at once, as services do
        // when a whole system starts on a fresh machine.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
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

/**
 * Opens the service's data source and brings its schema up to date. An advisory lock makes
 * replicas that start together run the migrations once; `synchronize` is never used.
 */
export async function openServiceDatabase(
  config: CoreConfig & DatabaseConfig,
  options: ServiceDatabaseOptions,
): Promise<DataSource> {
  await ensureDatabase(config.DATABASE_URL);
  const schema = schemaName(config.CM_NAMESPACE, options.service);
  const dataSource = new DataSource({
    type: 'postgres',
    url: config.DATABASE_URL,
    schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    applicationName: `classroom-monitor-${options.service}`,
    extra: {
      max: config.DATABASE_POOL_MAX,
      connectionTimeoutMillis: 5000,
      statement_timeout: config.DATABASE_STATEMENT_TIMEOUT_MS,
    },
  });
  await dataSource.initialize();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [schema]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [schema]).catch(() => undefined);
    await runner.release();
  }
  return dataSource;
}

@Injectable()
class DatabaseLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');

  constructor(
    private readonly dataSource: DataSource,
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
