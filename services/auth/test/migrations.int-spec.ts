import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { messages } from '@cm/contracts';
import { migrateServiceDatabase } from '@cm/platform';
import {
  dropNamespaceSchemas,
  eventually,
  startTestService,
  testDatabaseUrl,
  testNamespace,
  type TestService,
} from '@cm/platform/testing';
import { Client } from 'pg';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';
import { migrations } from '../src/migrations';

const built = path.resolve(__dirname, '../dist/main.js');
const names = migrations.map((m) => m.name);
// The first administrator's password, so that a first start has no generated one to keep.
const ADMIN_PASSWORD = 'correct horse battery';

async function query<T>(sql: string, params: unknown[] = [], url = testDatabaseUrl): Promise<T[]> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const recorded = async (namespace: string) =>
  (await query<{ name: string }>(`SELECT name FROM "${namespace}_auth".migrations ORDER BY id`)).map(
    (r) => r.name,
  );

const schemaExists = async (namespace: string) =>
  (await query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [`${namespace}_auth`])).length === 1;

/** `node dist/main.js migrate`, as the chart's migration Job runs it: its exit code and output. */
async function migrateCommand(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [built, 'migrate'], {
    // Nothing of the service's other settings: the job gives only these.
    env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, out };
}

describe('schema migrations', () => {
  const namespaces: string[] = [];
  const namespace = () => {
    const ns = testNamespace('authmg');
    namespaces.push(ns);
    return ns;
  };
  afterAll(async () => {
    for (const ns of namespaces) await dropNamespaceSchemas(ns);
  });

  describe('`main.js migrate`', () => {
    it('applies every migration and exits 0, reaching for nothing but PostgreSQL', async () => {
      const ns = namespace();
      const env = {
        CM_NAMESPACE: ns,
        DATABASE_URL: testDatabaseUrl,
        // Nothing listens there: a run that tried NATS would fail.
        NATS_URL: 'nats://127.0.0.1:9',
      };
      const first = await migrateCommand(env);
      expect(first).toEqual({ code: 0, out: expect.stringContaining(`Schema ${ns}_auth migrated`) });
      expect(await recorded(ns)).toEqual(names);
      await expect(query(`SELECT count(*) FROM "${ns}_auth".users`)).resolves.toEqual([{ count: '0' }]);

      const again = await migrateCommand(env);
      expect(again).toEqual({ code: 0, out: expect.stringContaining(`Schema ${ns}_auth was up to date`) });
      expect(await recorded(ns)).toEqual(names);
    });

    it('exits 1 with every bad variable named', async () => {
      const result = await migrateCommand({ CM_NAMESPACE: 'Bad-Name', DATABASE_URL: 'mysql://db/x' });
      expect(result.code).toBe(1);
      expect(result.out).toContain('CM_NAMESPACE: must be lowercase');
      expect(result.out).toContain('DATABASE_URL: must be a postgres:// URL');
    });
  });

  describe('DATABASE_MIGRATIONS=wait', () => {
    const start = (ns: string) =>
      startTestService<Config>({
        service: 'auth',
        schema: configSchema,
        module: AppModule.forRoot,
        namespace: ns,
        env: { DATABASE_MIGRATIONS: 'wait', LOG_LEVEL: 'info', ADMIN_PASSWORD },
      });

    it('leaves an unmigrated schema alone and waits, saying for what, then serves once the job has run', async () => {
      const ns = namespace();
      const lines: string[] = [];
      const write = process.stdout.write.bind(process.stdout);
      const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk, ...rest) => {
        lines.push(String(chunk));
        return write(chunk as string, ...(rest as []));
      });
      let service: TestService<Config> | undefined;
      try {
        let started = false;
        const starting = start(ns).then((s) => {
          started = true;
          service = s;
          return s;
        });
        const waiting = await eventually(() => {
          const line = lines.find((l) => l.includes('DATABASE_MIGRATIONS=wait'));
          expect(line).toBeDefined();
          return JSON.parse(line!) as { msg: string };
        });
        expect(waiting.msg).toBe(
          `Waiting for migration(s) ${names.join(', ')} in schema ${ns}_auth, applied by the migration job (DATABASE_MIGRATIONS=wait)`,
        );
        expect(started).toBe(false);
        expect(await schemaExists(ns)).toBe(false);

        await migrateServiceDatabase(
          {
            CM_NAMESPACE: ns,
            LOG_LEVEL: 'info',
            DATABASE_URL: testDatabaseUrl,
            DATABASE_MIGRATE_TIMEOUT_MS: 60_000,
          },
          { service: 'auth', migrations },
        );
        const auth = await starting;
        expect((await auth.rpc.send(messages.auth.health)).status).toBe('up');
      } finally {
        spy.mockRestore();
        await service?.close();
      }
    });

    it('gives up after DATABASE_MIGRATIONS_WAIT_MS, saying what is missing and what to run', async () => {
      const ns = namespace();
      const starting = startTestService<Config>({
        service: 'auth',
        schema: configSchema,
        module: AppModule.forRoot,
        namespace: ns,
        env: { DATABASE_MIGRATIONS: 'wait', DATABASE_MIGRATIONS_WAIT_MS: '1', ADMIN_PASSWORD },
      });
      await expect(starting).rejects.toThrow(
        `Gave up after 1 ms waiting for migration(s) ${names.join(', ')} in schema ${ns}_auth (DATABASE_MIGRATIONS=wait). Run this release's migrations`,
      );
    });
  });

  describe('an account that may not use the `postgres` maintenance database', () => {
    const suffix = randomBytes(4).toString('hex');
    const role = `cm_nomaint_${suffix}`;
    const database = `cm_own_${suffix}`;
    const url = new URL(testDatabaseUrl);
    url.username = role;
    url.pathname = `/${database}`;

    beforeAll(async () => {
      await query(`CREATE ROLE "${role}" LOGIN`);
      // Any connection of this role to `postgres` fails at once, as where a site grants it only its own database.
      await query(
        `ALTER ROLE "${role}" IN DATABASE postgres SET session_preload_libraries = 'cm_not_allowed_here'`,
      );
      await query(`CREATE DATABASE "${database}" OWNER "${role}"`);
    });
    afterAll(async () => {
      await query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await query(`DROP ROLE IF EXISTS "${role}"`);
    });

    it('cannot reach it indeed', async () => {
      const maintenance = new URL(url);
      maintenance.pathname = '/postgres';
      await expect(query('SELECT 1', [], maintenance.toString())).rejects.toThrow(/cm_not_allowed_here/);
    });

    it('starts the service and migrates its schema when its own database exists', async () => {
      const ns = namespace();
      const auth = await startTestService<Config>({
        service: 'auth',
        schema: configSchema,
        module: AppModule.forRoot,
        namespace: ns,
        env: { DATABASE_URL: url.toString(), ADMIN_PASSWORD },
      });
      try {
        expect((await auth.rpc.send(messages.auth.health)).status).toBe('up');
        expect(
          (
            await query<{ name: string }>(
              `SELECT name FROM "${ns}_auth".migrations ORDER BY id`,
              [],
              url.toString(),
            )
          ).map((r) => r.name),
        ).toEqual(names);
      } finally {
        await auth.close();
      }
    });

    it('runs `main.js migrate` too', async () => {
      const ns = namespace();
      const result = await migrateCommand({ CM_NAMESPACE: ns, DATABASE_URL: url.toString() });
      expect(result).toEqual({ code: 0, out: expect.stringContaining(`Schema ${ns}_auth migrated`) });
    });
  });
});
