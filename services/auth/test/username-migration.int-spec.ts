import { messages } from '@cm/contracts';
import { openServiceDatabase, parseEnv } from '@cm/platform';
import { dropNamespaceSchemas, startTestService, testEnv, testNamespace } from '@cm/platform/testing';
import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { configSchema } from '../src/config';
import { CreateUsers1732300000000 } from '../src/migrations/1732300000000-create-users';

describe('usernames stored before the NFKC rule', () => {
  const namespace = testNamespace('authmig');
  const table = `"${namespace}_auth".users`;
  afterAll(() => dropNamespaceSchemas(namespace));

  it('are brought to NFKC without invisible characters, a taken result getting a free suffix', async () => {
    // The schema as it was, with names the old rules let in (the old index told them apart).
    const before = await openServiceDatabase(parseEnv(configSchema, testEnv(namespace)), {
      service: 'auth',
      entities: [],
      migrations: [CreateUsers1732300000000],
    });
    const hash = await argon2.hash('old secret', { type: argon2.argon2id, memoryCost: 1024, timeCost: 1 });
    const stored = [
      'chief', // already in form: never renamed
      'ｃｈｉｅｆ', // becomes "chief", which is taken
      'Chief\u200b', // becomes "Chief", taken, and so is "chief-2"
      'ｄｏｒａ', // becomes a free "dora"
      'dana\u200b', // older than the "dana" below, which is in form and keeps its name
      'dana',
      '\u200b\u200c', // nothing left: a name is made up
    ];
    try {
      for (const [i, username] of stored.entries()) {
        await before.query(
          `INSERT INTO ${table} (username, password_hash, created_at) VALUES ($1, $2, now() + $3 * interval '1 second')`,
          [username, hash, i],
        );
      }
    } finally {
      await before.destroy();
    }

    const sut = await startTestService({
      service: 'auth',
      schema: configSchema,
      module: AppModule.forRoot,
      namespace,
      env: { ADMIN_USERNAME: 'nobody-new' },
    });
    try {
      const rows = (await sut.app
        .get(DataSource)
        .query(`SELECT username FROM ${table} ORDER BY created_at`)) as { username: string }[];
      expect(rows.map((r) => r.username)).toEqual([
        'chief',
        'chief-2',
        'Chief-3',
        'dora',
        'dana-2',
        'dana',
        'user',
      ]);
      // Still one username regardless of case, and the owner of "ｄｏｒａ" signs in as before.
      await expect(
        sut.app
          .get(DataSource)
          .query(`INSERT INTO ${table} (username, password_hash) VALUES ('CHIEF-2', 'x')`),
      ).rejects.toThrow(/users_username_key/);
      await expect(
        sut.rpc.send(messages.auth.login, { username: 'ｄｏｒａ', password: 'old secret' }),
      ).resolves.toMatchObject({ user: { username: 'dora' }, sessionVersion: 0 });
    } finally {
      await sut.close();
    }
  });
});
