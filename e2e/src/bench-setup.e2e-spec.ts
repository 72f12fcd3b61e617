import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';

describe('npm run bench on a machine where npm test never ran', () => {
  const database = `cm_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${database}`;
  const maintenance = new URL(testDatabaseUrl);
  maintenance.pathname = '/postgres';
  const exists = async () => {
    const client = new Client({
      connectionString: maintenance.toString(),
      connectionTimeoutMillis: 10_000,
    });
    await client.connect();
    try {
      return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1;
    } finally {
      await client.end();
    }
  };
  afterAll(async () => {
    const client = new Client({
      connectionString: maintenance.toString(),
      connectionTimeoutMillis: 10_000,
    });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${database}"`).finally(() => client.end());
  });

  it('creates the database a benchmark connects to', async () => {
    expect(await exists()).toBe(false);
    // The smallest run of the one benchmark that needs nothing but PostgreSQL and the build.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [path.resolve(__dirname, '../../bench/maintenance/run.mjs')],
      {
        env: { ...process.env, DATABASE_URL: url.toString(), BENCH_DEVICES: '100', BENCH_WINDOWS: '5' },
        timeout: 300_000,
      },
    );
    expect(stdout).toMatch(/^\d+ devices, \d+ spans/m);
    expect(await exists()).toBe(true);
  });
});
