import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually } from '@cm/platform/testing';
import { signIn } from './session';
import { startSystem } from './stack';

// What `npm start` does on a person's first run: the launcher's own modules, and the system as it starts it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { applyLocalKeys } = require('../../scripts/local-keys.cjs') as {
  applyLocalKeys(env: Record<string, string | undefined>, dataDir: string): void;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { restartDelay } = require('../../scripts/supervisor.cjs') as {
  restartDelay(previousMs: number | undefined, ranMs: number): number;
};

const isKey = (text: string | undefined) => Buffer.from(text ?? '', 'base64').length === 32;

describe('npm start on a first run', () => {
  const folders: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cm-first-run-'));
    folders.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true });
  });

  describe('encryption keys', () => {
    it('makes ALERTS_SECRET_KEY and AUTH_TOTP_KEY once, readable by their owner only, and keeps them', () => {
      const dataDir = folder();
      const first: Record<string, string | undefined> = {};
      applyLocalKeys(first, dataDir);
      expect(isKey(first.ALERTS_SECRET_KEY)).toBe(true);
      expect(isKey(first.AUTH_TOTP_KEY)).toBe(true);
      expect(first.ALERTS_SECRET_KEY).not.toBe(first.AUTH_TOTP_KEY);
      for (const file of ['alerts-secret-key', 'auth-totp-key'])
        expect(statSync(path.join(dataDir, file)).mode & 0o777).toBe(0o600);

      // The next start reads the same keys: secrets sealed with them stay readable.
      const again: Record<string, string | undefined> = {};
      applyLocalKeys(again, dataDir);
      expect(again).toEqual(first);
    });

    it('keeps a key that is given, and makes none with NODE_ENV=production', () => {
      const given = { ALERTS_SECRET_KEY: 'given', AUTH_TOTP_KEY_FILE: '/run/secrets/totp' } as Record<
        string,
        string | undefined
      >;
      applyLocalKeys(given, folder());
      expect(given).toEqual({ ALERTS_SECRET_KEY: 'given', AUTH_TOTP_KEY_FILE: '/run/secrets/totp' });

      const production: Record<string, string | undefined> = { NODE_ENV: 'production' };
      applyLocalKeys(production, folder());
      expect(production).toEqual({ NODE_ENV: 'production' });
    });

    it('refuses a key file that holds something else instead of replacing it', () => {
      const dataDir = folder();
      applyLocalKeys({}, dataDir);
      const file = path.join(dataDir, 'auth-totp-key');
      writeFileSync(file, 'not a key\n');
      expect(() => applyLocalKeys({}, dataDir)).toThrow(`${file} does not hold a key`);
    });
  });

  it('waits 1 s before restarting a crashed service, doubling to 30 s, and 1 s again after a minute of running', () => {
    expect(restartDelay(undefined, 500)).toBe(1000);
    expect(restartDelay(1000, 500)).toBe(2000);
    expect(restartDelay(16_000, 500)).toBe(30_000);
    expect(restartDelay(30_000, 500)).toBe(30_000);
    expect(restartDelay(30_000, 60_000)).toBe(1000);
  });

  describe('the system as npm start runs it', () => {
    let system: Awaited<ReturnType<typeof startSystem>>;
    let dataDir: string;
    let cookie: string;
    beforeAll(async () => {
      dataDir = folder();
      system = await startSystem({ ALERTS_ALLOWED_TARGETS: '127.0.0.1' }, { restart: true, dataDir });
      cookie = await signIn(system.url, system.admin.username, system.admin.password);
    });
    afterAll(async () => {
      await system?.close();
    });
    const get = (route: string) => fetch(`${system.url}${route}`, { headers: { cookie } });

    it('offers two-factor sign-in and webhook channels without any key set', async () => {
      const totp = await get('/api/account/totp');
      expect(await totp.json()).toMatchObject({ available: true });
      const channel = await fetch(`${system.url}/api/notification-channels`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'AV team', type: 'webhook', url: 'http://127.0.0.1:9/hook' }),
      });
      expect(channel.status).toBe(201);
      expect(system.env.AUTH_TOTP_KEY).toBe(readFileSync(path.join(dataDir, 'auth-totp-key'), 'utf8').trim());
    });

    it('starts a crashed service again, saying so, while the others go on serving', async () => {
      const others = ['auth', 'gateway', 'media', 'monitor'].map((s) => system.children.get(s)!.pid);
      const crashed = system.children.get('inventory')!;
      crashed.kill('SIGKILL');

      await eventually(
        () =>
          expect(system.logs).toContain('inventory inventory exited with signal SIGKILL; restarting in 1 s'),
        30_000,
        100,
      );
      // Meanwhile a route that needs no inventory still answers.
      expect((await get('/api/account/totp')).status).toBe(200);
      // Back: the API answers from inventory again (generous: the machine may be busy).
      await eventually(
        async () => {
          expect(system.children.get('inventory')?.pid).not.toBe(crashed.pid);
          expect((await get('/api/buildings')).status).toBe(200);
        },
        120_000,
        500,
      );
      expect(['auth', 'gateway', 'media', 'monitor'].map((s) => system.children.get(s)!.pid)).toEqual(others);
    });

    it('stops every process, the restarted one too, when asked', async () => {
      const children = [...system.children.values()];
      expect(children).toHaveLength(5);
      await system.stop();
      for (const child of children) expect(child.exitCode !== null || child.signalCode !== null).toBe(true);
    });
  });
});
