import { z } from 'zod';
import { ConfigError, coreEnv, databaseEnv, parseEnv } from './config';

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
});
