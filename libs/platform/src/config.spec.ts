import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  coreEnv,
  databaseEnv,
  envInt,
  jetStreamEnv,
  parseEnv,
  secret,
  secretVariables,
} from './config';
import { natsAuthMode, natsClientOptions } from './nats/connection-options';

describe(parseEnv.name, () => {
  const sut = z.object({ ...coreEnv, ...databaseEnv });

  it('fills local defaults when nothing is set', () => {
    expect(parseEnv(sut, {})).toMatchObject({
      CM_NAMESPACE: 'cm',
      NATS_URL: 'nats://127.0.0.1:4222',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/classroom_monitor',
      NATS_REQUEST_TIMEOUT_MS: 5000,
    });
  });

  it('lists every bad variable at once, by name', () => {
    const error = (() => {
      try {
        parseEnv(sut, {
          CM_NAMESPACE: 'Bad-Name',
          DATABASE_URL: 'mysql://x',
          NATS_REQUEST_TIMEOUT_MS: 'soon',
        });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toContain('CM_NAMESPACE: must be lowercase');
    expect(problems).toContain('DATABASE_URL: must be a postgres:// URL');
    expect(problems).toContain('NATS_REQUEST_TIMEOUT_MS');
    expect((error as ConfigError).problems).toHaveLength(3);
  });

  describe('NATS credentials', () => {
    const problemsOf = (env: NodeJS.ProcessEnv) => {
      try {
        parseEnv(sut, env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };

    it('runs without credentials, as on one machine, and says so', () => {
      const config = parseEnv(sut, { NATS_USER: '', NATS_PASSWORD: '' });
      expect(natsAuthMode(config)).toBe('none');
      expect(natsClientOptions(config, 'inventory')).toEqual({ inboxPrefix: '_INBOX_cm_inventory' });
    });

    it('logs in with a user and password, a token, or a creds file, each on its own inboxes', () => {
      const user = parseEnv(sut, {
        CM_NAMESPACE: 'campus',
        NATS_USER: 'campus-gateway',
        NATS_PASSWORD: 's3cret',
      });
      expect(natsAuthMode(user)).toBe('user');
      expect(natsClientOptions(user, 'gateway')).toEqual({
        inboxPrefix: '_INBOX_campus_gateway',
        user: 'campus-gateway',
        pass: 's3cret',
      });
      const token = parseEnv(sut, { NATS_TOKEN: 'tok' });
      expect(natsAuthMode(token)).toBe('token');
      expect(natsClientOptions(token, 'auth')).toMatchObject({ token: 'tok' });
      const file = path.join(tmpdir(), `cm-${process.pid}.creds`);
      writeFileSync(file, 'not read until a connection is made');
      const creds = parseEnv(sut, { NATS_CREDS_FILE: file });
      expect(natsAuthMode(creds)).toBe('creds');
      expect(natsClientOptions(creds, 'media').authenticator).toEqual(expect.any(Function));
    });

    it('names what is missing or contradictory, beside every other problem', () => {
      expect(problemsOf({ NATS_USER: 'cm-gateway' })).toEqual(['NATS_PASSWORD: is required with NATS_USER']);
      expect(problemsOf({ NATS_PASSWORD: 'x' })).toEqual(['NATS_USER: is required with NATS_PASSWORD']);
      expect(
        problemsOf({ CM_NAMESPACE: 'Bad', NATS_USER: 'u', NATS_PASSWORD: 'p', NATS_TOKEN: 't' }),
      ).toEqual([
        'CM_NAMESPACE: must be lowercase letters, digits or _, starting with a letter',
        'NATS_USER, NATS_TOKEN: set only one way of logging in to NATS',
      ]);
      expect(problemsOf({ NATS_CREDS_FILE: '/nonexistent/cm.creds' })).toEqual([
        'NATS_CREDS_FILE: must name a file this process can read',
      ]);
    });
  });

  describe('secrets from files', () => {
    const withSecret = z.object({ ...sut.shape, API_KEY: secret(z.string().min(8)), API_NAME: z.string() });
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'cm-config-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, content: string) => {
      writeFileSync(path.join(dir, name), content);
      return path.join(dir, name);
    };
    const problemsOf = (env: NodeJS.ProcessEnv) => {
      try {
        parseEnv(withSecret, env);
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };

    it('takes a secret from the file <NAME>_FILE names, without the line break an editor leaves', () => {
      const config = parseEnv(withSecret, {
        API_NAME: 'x',
        API_KEY_FILE: file('api-key', 'k3y-from-a-mounted-secret\n'),
        DATABASE_URL_FILE: file('database-url', 'postgres://cm:pw@db:5432/cm\n'),
        NATS_USER: 'cm-gateway',
        NATS_PASSWORD_FILE: file('nats-password', '  s3cret  \n'),
      });
      expect(config).toMatchObject({
        API_KEY: 'k3y-from-a-mounted-secret',
        DATABASE_URL: 'postgres://cm:pw@db:5432/cm',
        NATS_PASSWORD: 's3cret',
      });
      expect(config).not.toHaveProperty('API_KEY_FILE');
    });

    it('checks the content of the file as it would the variable', () => {
      expect(problemsOf({ API_NAME: 'x', API_KEY_FILE: file('short', 'short') })).toEqual([
        'API_KEY: Too small: expected string to have >=8 characters',
      ]);
    });

    it('refuses a secret given both ways, a file it cannot read, and an empty one, beside other problems', () => {
      expect(
        problemsOf({
          API_KEY: 'long-enough-key',
          API_KEY_FILE: file('both', 'another-long-key'),
          DATABASE_URL_FILE: path.join(dir, 'missing'),
          NATS_TOKEN_FILE: file('empty', '\n'),
          CM_NAMESPACE: 'Bad',
        }),
      ).toEqual([
        'NATS_TOKEN_FILE: ' + path.join(dir, 'empty') + ' is empty',
        'DATABASE_URL_FILE: cannot read ' + path.join(dir, 'missing') + ' (ENOENT)',
        'API_KEY, API_KEY_FILE: set only one of them',
        'CM_NAMESPACE: must be lowercase letters, digits or _, starting with a letter',
        'API_NAME: Invalid input: expected string, received undefined',
      ]);
    });

    it('reads files only for secrets, so other variables keep one source', () => {
      expect(secretVariables(withSecret).sort()).toEqual([
        'API_KEY',
        'DATABASE_URL',
        'NATS_PASSWORD',
        'NATS_TOKEN',
      ]);
      expect(problemsOf({ API_KEY: 'long-enough-key', API_NAME_FILE: file('name', 'x') })).toEqual([
        'API_NAME: Invalid input: expected string, received undefined',
      ]);
    });
  });
});

describe('NATS_STREAM_REPLICAS', () => {
  const sut = z.object({ ...coreEnv, ...jetStreamEnv });
  const problems = (env: NodeJS.ProcessEnv) => {
    try {
      parseEnv(sut, env);
      return [];
    } catch (error) {
      return (error as ConfigError).problems;
    }
  };

  it('keeps one copy of each stream by default, as a single NATS server can', () => {
    expect(parseEnv(sut, {}).NATS_STREAM_REPLICAS).toBe(1);
  });

  it('takes 3 for a NATS cluster', () => {
    expect(parseEnv(sut, { NATS_STREAM_REPLICAS: '3' }).NATS_STREAM_REPLICAS).toBe(3);
  });

  it.each(['0', '6', '2.5', 'three', '-1'])('refuses %s by name, saying what it takes', (value) => {
    expect(problems({ NATS_STREAM_REPLICAS: value })).toEqual([
      expect.stringMatching(/^NATS_STREAM_REPLICAS: must be a whole number from 1 to 5/),
    ]);
  });
});

describe('DATABASE_MIGRATIONS', () => {
  const sut = z.object({ ...coreEnv, ...databaseEnv });

  it('migrates at start by default, so one process alone keeps its schema up to date', () => {
    expect(parseEnv(sut, {})).toMatchObject({
      DATABASE_MIGRATIONS: 'run',
      DATABASE_MIGRATIONS_WAIT_MS: 100_000,
    });
  });

  it('waits for a migration job when told to', () => {
    expect(parseEnv(sut, { DATABASE_MIGRATIONS: 'wait' }).DATABASE_MIGRATIONS).toBe('wait');
  });

  it('refuses anything else by name', () => {
    expect(() => parseEnv(sut, { DATABASE_MIGRATIONS: 'skip' })).toThrow(
      'DATABASE_MIGRATIONS: must be run or wait',
    );
  });
});

describe('envInt', () => {
  const schema = z.object({ LIMIT: envInt(1, 100, 10) });

  it('takes a whole number in range, and the fallback when unset', () => {
    expect(parseEnv(schema, { LIMIT: '42' })).toEqual({ LIMIT: 42 });
    expect(parseEnv(schema, {})).toEqual({ LIMIT: 10 });
  });

  it('refuses fractions and numbers out of range by name', () => {
    for (const bad of ['2.5', '0', '101', 'many'])
      expect(() => parseEnv(schema, { LIMIT: bad })).toThrow(/LIMIT/);
  });
});
