import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from '../src';
import { testDatabaseUrl } from '../src/testing';

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
