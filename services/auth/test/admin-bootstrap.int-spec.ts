import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
import { passwordProblem } from '../src/passwords/password-policy';

type Row = { username: string; role: string; is_active: number; password_hash: string };

async function users(sut: TestService<Config>): Promise<Row[]> {
  return sut.app
    .get(DataSource)
    .query(`SELECT username, role, is_active, password_hash FROM "${sut.namespace}_auth".users`);
}

/** What the process writes to stdout (its log) while `run` runs. */
async function logOf<T>(run: () => Promise<T>): Promise<{ result: PromiseSettledResult<T>; log: string }> {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk, ...rest) => {
    lines.push(String(chunk));
    return write(chunk, ...(rest as []));
  });
  try {
    const [result] = await Promise.allSettled([run()]);
    return { result, log: lines.join('') };
  } finally {
    spy.mockRestore();
  }
}

/** Auth in this process, in a namespace of its own unless given one. */
const startAuth = (env: Record<string, string>, namespace?: string) =>
  startTestService({ service: 'auth', schema: configSchema, module: AppModule.forRoot, namespace, env });

describe('auth service start-up', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cm-auth-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates its schema, answers health, and creates the administrator from the environment', async () => {
    const sut = await startAuth({ ADMIN_USERNAME: 'facilities', ADMIN_PASSWORD: 'correct horse battery' });
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
      startAuth({ ADMIN_PASSWORD_OUTPUT_FILE: path.join(dir, 'admin-password') }, namespace);
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

  it('keeps a generated password in a new file only its owner can read, and logs where it is, never the password', async () => {
    const namespace = testNamespace('auth');
    const file = path.join(dir, 'data', 'admin-password');
    const start = () => startAuth({ ADMIN_PASSWORD_OUTPUT_FILE: file, LOG_LEVEL: 'info' }, namespace);
    try {
      const first = await logOf(start);
      if (first.result.status === 'rejected') throw first.result.reason;
      const sut = first.result.value;
      const password = readFileSync(file, 'utf8').trim();
      const rows = await users(sut);
      await sut.close();

      expect(statSync(file).mode & 0o777).toBe(0o600);
      // Written whole under another name and linked into place: no draft is left beside it.
      expect(readdirSync(path.dirname(file))).toEqual(['admin-password']);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ username: 'admin', role: 'admin' });
      await expect(argon2.verify(rows[0].password_hash, password)).resolves.toBe(true);
      // The rule every new password is held to, so the first change is not the first refusal.
      expect(passwordProblem(password)).toBeUndefined();
      expect(first.log).toContain(`The first administrator's password is in ${file}`);
      expect(first.log).not.toContain(password);

      // A later start finds the administrator: the file is neither needed nor touched.
      rmSync(file);
      const later = await start();
      await later.close();
      expect(() => statSync(file)).toThrow(/ENOENT/);
    } finally {
      await dropNamespaceSchemas(namespace);
    }
  });

  it('refuses to replace a password file that exists, and creates no administrator until it is gone', async () => {
    const namespace = testNamespace('auth');
    const file = path.join(dir, 'admin-password');
    writeFileSync(file, "an earlier installation's password\n", { mode: 0o600 });
    const start = () => startAuth({ ADMIN_PASSWORD_OUTPUT_FILE: file }, namespace);
    try {
      await expect(start()).rejects.toThrow(`${file} already exists, though there are no users yet`);
      expect(readFileSync(file, 'utf8')).toBe("an earlier installation's password\n");

      rmSync(file);
      const sut = await start();
      const rows = await users(sut);
      await sut.close();
      expect(rows).toHaveLength(1);
      await expect(argon2.verify(rows[0].password_hash, readFileSync(file, 'utf8').trim())).resolves.toBe(
        true,
      );
    } finally {
      await dropNamespaceSchemas(namespace);
    }
  });

  it('refuses to start without ADMIN_PASSWORD when it has nowhere to keep a generated one', async () => {
    await expect(startAuth({})).rejects.toThrow(
      /ADMIN_PASSWORD is not set: set it, or set ADMIN_PASSWORD_OUTPUT_FILE .* or ADMIN_PASSWORD_SECRET/,
    );
  });

  it('refuses to start when the Secret for the password cannot be written, and creates no administrator', async () => {
    // Outside a pod there is no service-account token to write a Secret with.
    const namespace = testNamespace('auth');
    const start = (env: Record<string, string>) => startAuth(env, namespace);
    try {
      const failed = await logOf(() => start({ ADMIN_PASSWORD_SECRET: 'cm-first-admin' }));
      expect(failed.result).toMatchObject({
        status: 'rejected',
        reason: { message: expect.stringMatching(/Cannot read the service-account token/) },
      });
      expect(failed.log).not.toMatch(/generated password|password is in/);
      const sut = await start({ ADMIN_PASSWORD: 'correct horse battery' });
      const rows = await users(sut);
      await sut.close();
      await expect(argon2.verify(rows[0].password_hash, 'correct horse battery')).resolves.toBe(true);
    } finally {
      await dropNamespaceSchemas(namespace);
    }
  });

  it('refuses to start with both a password file and a Secret named', async () => {
    await expect(
      startAuth({ ADMIN_PASSWORD_OUTPUT_FILE: path.join(dir, 'p'), ADMIN_PASSWORD_SECRET: 'cm-first-admin' }),
    ).rejects.toThrow(
      /ADMIN_PASSWORD_SECRET: set only one of ADMIN_PASSWORD_OUTPUT_FILE and ADMIN_PASSWORD_SECRET/,
    );
  });

  it('refuses to start with an ADMIN_PASSWORD_SECRET that is no Kubernetes object name', async () => {
    await expect(startAuth({ ADMIN_PASSWORD_SECRET: 'First Admin' })).rejects.toThrow(
      /ADMIN_PASSWORD_SECRET: must be a Kubernetes object name/,
    );
  });

  it('refuses to start with a short or common ADMIN_PASSWORD, naming the variable', async () => {
    await expect(startAuth({ ADMIN_PASSWORD: 'short pass' })).rejects.toThrow(
      /ADMIN_PASSWORD: Password must be at least 12 characters/,
    );
    await expect(startAuth({ ADMIN_PASSWORD: 'qwerty123456' })).rejects.toThrow(
      /ADMIN_PASSWORD: This password is one of the 10,000 most common passwords/,
    );
  });
});
