import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from '@cm/platform';
import { configProblems } from '@cm/platform/testing';
import { configSchema } from './config';

describe('gateway configuration', () => {
  const secret = 'x'.repeat(32);
  const sut = (env: Record<string, string>) => parseEnv(configSchema, env);
  const problemsOf = (env: Record<string, string>) => configProblems(configSchema, env);

  it('requires a session secret of at least 32 characters', () => {
    expect(problemsOf({})).toContain(
      'SESSION_SECRET: is required: a random string of at least 32 characters',
    );
    expect(problemsOf({ SESSION_SECRET: 'short' })).toContain(
      'SESSION_SECRET: must be at least 32 characters',
    );
    expect(sut({ SESSION_SECRET: secret }).SESSION_SECRET).toBe(secret);
  });

  it("reads TRUST_PROXY as Express's trust proxy setting", () => {
    const trust = (TRUST_PROXY: string) => sut({ SESSION_SECRET: secret, TRUST_PROXY }).TRUST_PROXY;
    expect(sut({ SESSION_SECRET: secret }).TRUST_PROXY).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('1')).toBe(1);
    expect(trust('loopback, 10.0.0.0/8')).toBe('loopback, 10.0.0.0/8');
  });

  it('takes PUBLIC_ORIGIN as a list of origins and names an entry that is not one', () => {
    const origins = (PUBLIC_ORIGIN: string) => sut({ SESSION_SECRET: secret, PUBLIC_ORIGIN }).PUBLIC_ORIGIN;
    expect(sut({ SESSION_SECRET: secret }).PUBLIC_ORIGIN).toEqual([]);
    expect(origins('https://monitor.campus.edu/, http://localhost:5173')).toEqual([
      'https://monitor.campus.edu',
      'http://localhost:5173',
    ]);
    expect(problemsOf({ SESSION_SECRET: secret, PUBLIC_ORIGIN: 'https://monitor.campus.edu/app' })).toEqual([
      'PUBLIC_ORIGIN: "https://monitor.campus.edu/app" is not an origin like https://monitor.example.edu',
    ]);
  });

  it('ends sessions 168 hours after sign-in unless SESSION_ABSOLUTE_HOURS says otherwise, and names a bad value', () => {
    expect(sut({ SESSION_SECRET: secret }).SESSION_ABSOLUTE_HOURS).toBe(168);
    expect(sut({ SESSION_SECRET: secret, SESSION_ABSOLUTE_HOURS: '12' }).SESSION_ABSOLUTE_HOURS).toBe(12);
    expect(problemsOf({ SESSION_SECRET: secret, SESSION_ABSOLUTE_HOURS: 'a week' })).toEqual([
      'SESSION_ABSOLUTE_HOURS: must be a number of hours',
    ]);
    expect(problemsOf({ SESSION_SECRET: secret, SESSION_ABSOLUTE_HOURS: '0' })).toEqual([
      'SESSION_ABSOLUTE_HOURS: must be at least 0.01 hours',
    ]);
  });

  it('refuses to start in production without PUBLIC_ORIGIN, naming it beside every other problem', () => {
    const required =
      'PUBLIC_ORIGIN: is required when NODE_ENV=production: the origin(s) the app is served at, e.g. https://monitor.campus.edu';
    const store = {
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(problemsOf({ SESSION_SECRET: secret, NODE_ENV: 'production', ...store })).toEqual([required]);
    expect(problemsOf({ NODE_ENV: 'production', ...store })).toEqual([
      'SESSION_SECRET: is required: a random string of at least 32 characters',
      required,
    ]);
    expect(
      sut({
        SESSION_SECRET: secret,
        NODE_ENV: 'production',
        PUBLIC_ORIGIN: 'https://monitor.campus.edu',
        ...store,
      }).PUBLIC_ORIGIN,
    ).toEqual(['https://monitor.campus.edu']);
    expect(sut({ SESSION_SECRET: secret, NODE_ENV: 'development' }).PUBLIC_ORIGIN).toEqual([]);
  });

  it('keeps serving after SIGTERM only for less than the shutdown timeout, and not at all by default', () => {
    expect(sut({ SESSION_SECRET: secret }).SHUTDOWN_DELAY_MS).toBe(0);
    expect(sut({ SESSION_SECRET: secret, SHUTDOWN_DELAY_MS: '5000' }).SHUTDOWN_DELAY_MS).toBe(5000);
    expect(
      problemsOf({ SESSION_SECRET: secret, SHUTDOWN_DELAY_MS: '25000', SHUTDOWN_TIMEOUT_MS: '25000' }),
    ).toEqual([
      'SHUTDOWN_DELAY_MS: must be less than SHUTDOWN_TIMEOUT_MS (25000): the work in flight needs time after it',
    ]);
  });

  it('takes the session secret from a file, as a mounted Secret gives it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cm-gateway-'));
    try {
      writeFileSync(path.join(dir, 'session-secret'), `${secret}\n`);
      expect(sut({ SESSION_SECRET_FILE: path.join(dir, 'session-secret') }).SESSION_SECRET).toBe(secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("needs the store's address in production unless browsers reach the store themselves", () => {
    const production = {
      SESSION_SECRET: secret,
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: 'https://cm.campus.edu',
    };
    expect(problemsOf(production)).toEqual([
      "S3_ENDPOINT: is required when NODE_ENV=production and S3_PUBLIC_ENDPOINT is unset: browsers' uploads go through the gateway to the store at this URL (media's S3_ENDPOINT, e.g. http://minio:9000)",
    ]);
    expect(
      sut({ ...production, S3_PUBLIC_ENDPOINT: 'https://files.campus.edu' }).S3_ENDPOINT,
    ).toBeUndefined();
    expect(problemsOf({ ...production, S3_ENDPOINT: 'minio:9000' })).toEqual([
      'S3_ENDPOINT: must be the http(s) URL of an S3-compatible API',
    ]);
  });

  it("needs media's store credentials when it forwards uploads, to check their signatures", () => {
    const forwarding = { SESSION_SECRET: secret, S3_ENDPOINT: 'http://minio:9000' };
    const why = (name: string) =>
      `${name}: is required when S3_ENDPOINT is set and S3_PUBLIC_ENDPOINT is not: the gateway checks the signature of the uploads it forwards with media's store credentials (the same ${name})`;
    expect(problemsOf(forwarding)).toEqual([why('S3_ACCESS_KEY_ID'), why('S3_SECRET_ACCESS_KEY')]);
    expect(problemsOf({ ...forwarding, S3_ACCESS_KEY_ID: 'key' })).toEqual([why('S3_SECRET_ACCESS_KEY')]);
    const config = sut({ ...forwarding, S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' });
    expect(config.S3_REGION).toBe('us-east-1');
    expect(
      sut({ ...forwarding, S3_PUBLIC_ENDPOINT: 'https://files.campus.edu' }).S3_ACCESS_KEY_ID,
    ).toBeUndefined();
  });

  it("names media's bucket as media does: S3_BUCKET, or after the namespace", () => {
    expect(sut({ SESSION_SECRET: secret, CM_NAMESPACE: 'campus_a' }).S3_BUCKET).toBe('campus-a-media');
    expect(sut({ SESSION_SECRET: secret, S3_BUCKET: 'photos' }).S3_BUCKET).toBe('photos');
  });
});
