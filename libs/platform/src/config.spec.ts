import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, coreEnv, databaseEnv, parseEnv } from './config';
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
});
