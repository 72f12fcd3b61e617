import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { ensureDatabase, migrateServiceDatabase, schemaOf } from '../src';
import { dropNamespaceSchemas, testDatabaseUrl, testNamespace } from '../src/testing';

describe(ensureDatabase.name, () => {
  const name = `cm_ensure_${randomBytes(4).toString('hex')}`;
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const admin = new URL(testDatabaseUrl);
  admin.pathname = '/postgres';

  const query = async (sql: string, params: unknown[] = []) => {
    const client = new Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      return await client.query(sql, params);
    } finally {
      await client.end();
    }
  };

  afterAll(() => query(`DROP DATABASE IF EXISTS "${name}"`));

  it('creates a missing database once when every service of a fresh system starts at the same moment', async () => {
    const starts = Array.from({ length: 6 }, () => ensureDatabase(url.toString()));
    await expect(Promise.all(starts)).resolves.toHaveLength(6);
    const { rowCount } = await query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    expect(rowCount).toBe(1);
    await expect(ensureDatabase(url.toString())).resolves.toBeUndefined();
  });
});

describe(migrateServiceDatabase.name, () => {
  const namespace = testNamespace('mig');
  // An account whose own settings give every statement a deadline, as a site may set one.
  const role = `${namespace}_owner`;
  const database = decodeURIComponent(new URL(testDatabaseUrl).pathname.slice(1));
  const asRole = new URL(testDatabaseUrl);
  asRole.username = role;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  beforeAll(async () => {
    await admin(`CREATE ROLE "${role}" LOGIN`);
    await admin(`ALTER ROLE "${role}" SET statement_timeout = '7s'`);
    await admin(`GRANT CREATE ON DATABASE "${database}" TO "${role}"`);
  });
  afterAll(async () => {
    await dropNamespaceSchemas(namespace);
    await admin(`REVOKE CREATE ON DATABASE "${database}" FROM "${role}"`);
    await admin(`DROP ROLE "${role}"`);
  });

  /** Records the statement timeout its own session runs under: what a long migration would meet. */
  class RecordStatementTimeout1700000000000 implements MigrationInterface {
    async up(queryRunner: QueryRunner): Promise<void> {
      const schema = schemaOf(queryRunner);
      await queryRunner.query(
        `CREATE TABLE ${schema}.seen AS SELECT current_setting('statement_timeout') AS statement_timeout`,
      );
    }
    async down(): Promise<void> {}
  }

  it('runs migrations with no statement timeout, whatever the account sets, applies each once, and says which it applied', async () => {
    const config = {
      CM_NAMESPACE: namespace,
      LOG_LEVEL: 'warn' as const,
      DATABASE_URL: asRole.toString(),
      DATABASE_MIGRATE_TIMEOUT_MS: 60_000,
    };
    const options = { service: 'probe', migrations: [RecordStatementTimeout1700000000000] };
    await expect(migrateServiceDatabase(config, options)).resolves.toEqual([
      'RecordStatementTimeout1700000000000',
    ]);
    await expect(migrateServiceDatabase(config, options)).resolves.toEqual([]);
    const client = new Client({ connectionString: testDatabaseUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT statement_timeout FROM "${namespace}_probe".seen`);
      expect(rows).toEqual([{ statement_timeout: '0' }]);
    } finally {
      await client.end();
    }
  });
});
