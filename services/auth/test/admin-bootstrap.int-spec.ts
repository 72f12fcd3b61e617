import { messages } from '@cm/contracts';
import {
  dropNamespaceSchemas,
  startTestService,
  testNamespace,
  type TestService,
} from '@cm/platform/testing';
import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';

type Row = { username: string; role: string; is_active: number; password_hash: string };

async function users(sut: TestService<Config>): Promise<Row[]> {
  return sut.app
    .get(DataSource)
    .query(`SELECT username, role, is_active, password_hash FROM "${sut.namespace}_auth".users`);
}

describe('auth service start-up', () => {
  it('migrates its schema, answers health, and creates the administrator from the environment', async () => {
    const sut = await startTestService({
      service: 'auth',
      schema: configSchema,
      module: AppModule.forRoot,
      env: { ADMIN_USERNAME: 'facilities', ADMIN_PASSWORD: 'correct horse battery' },
    });
    try {
      const report = await sut.rpc.send(messages.auth.health);
      expect(report).toMatchObject({ status: 'up', checks: { postgres: { status: 'up' } } });
      const rows = await users(sut);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ username: 'facilities', role: 'admin', is_active: 1 });
      expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
      await expect(argon2.verify(rows[0].password_hash, 'correct horse battery')).resolves.toBe(true);
    } finally {
      await sut.close();
    }
  });

  it('creates exactly one administrator when two replicas start together, and none on later starts', async () => {
    const namespace = testNamespace('auth');
    const start = () =>
      startTestService({
        service: 'auth',
        schema: configSchema,
        module: AppModule.forRoot,
        namespace,
        env: {},
      });
    const [a, b] = await Promise.all([start(), start()]);
    try {
      expect(await users(a)).toHaveLength(1);
      await b.close();
      const c = await start();
      expect(await users(c)).toHaveLength(1);
      await c.close();
    } finally {
      await a.close();
      await dropNamespaceSchemas(namespace);
    }
  });

  it('refuses to start with a short ADMIN_PASSWORD, naming the variable', async () => {
    await expect(
      startTestService({
        service: 'auth',
        schema: configSchema,
        module: AppModule.forRoot,
        env: { ADMIN_PASSWORD: 'short' },
      }),
    ).rejects.toThrow(/ADMIN_PASSWORD: must be at least 8 characters/);
  });
});
