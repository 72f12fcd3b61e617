import { type HealthReport } from '@cm/contracts';
import { type ChildProcess, execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { signIn } from './session';
import { startSystem } from './stack';

describe('the whole system', () => {
  let system: Awaited<ReturnType<typeof startSystem>>;

  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(() => system?.close());

  /** The checks are shown to administrators only; anybody else reads up or down. */
  const asAdmin = async () => ({
    cookie: await signIn(system.url, system.admin.username, system.admin.password),
  });

  it('is up: HTTP → gateway → NATS → every service → PostgreSQL', async () => {
    expect(await (await fetch(`${system.url}/api/status/system`)).json()).toEqual({ status: 'up' });
    const res = await fetch(`${system.url}/api/status/system`, { headers: await asAdmin() });
    expect(res.status).toBe(200);
    const report = (await res.json()) as HealthReport;
    expect(report.status).toBe('up');
    for (const part of ['gateway', 'auth', 'inventory', 'media', 'monitor', 'postgres', 'nats']) {
      expect(report.checks[part]).toMatchObject({ status: 'up' });
    }
  });

  it('says the gateway process is ready by its own connections alone', async () => {
    const res = await fetch(`${system.url}/api/readyz`, { headers: await asAdmin() });
    expect(res.status).toBe(200);
    expect(Object.keys(((await res.json()) as HealthReport).checks).sort()).toEqual(['nats', 'postgres']);
  });

  it('serves the built web app and the API description', async () => {
    const page = await fetch(`${system.url}/buildings`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const docs = await fetch(`${system.url}/api/docs`);
    expect(((await docs.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('keeps a generated administrator password in a file only its owner reads, and logs where, never the password', () => {
    const file = system.env.ADMIN_PASSWORD_OUTPUT_FILE;
    const lines = system.logs.filter((l) => l.includes('Created administrator'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`The first administrator's password is in ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(system.admin.password).toMatch(/^\S{16,}$/);
    expect(system.logs.filter((l) => l.includes(system.admin.password))).toEqual([]);
  });

  it("passes the chart's `helm test` script, which fails clearly on a wrong password", async () => {
    const script = path.join(__dirname, '../../deploy/helm/classroom-monitor/files/api-test.js');
    const run = (password: string) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const env = {
          PATH: process.env.PATH,
          CM_URL: system.url,
          CM_ORIGIN: system.url,
          CM_USERNAME: system.admin.username,
          CM_PASSWORD: password,
        };
        execFile(process.execPath, ['-e', readFileSync(script, 'utf8')], { env }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, output: stdout + stderr }),
        );
      });
    const passing = await run(system.admin.password);
    expect(passing.code).toBe(0);
    expect(passing.output).toMatch(
      new RegExp(
        `^OK: signed in as "${system.admin.username}" and read \\d+ building\\(s\\) through ${system.url}\n$`,
      ),
    );
    const wrong = await run('not the password');
    expect(wrong.code).toBe(1);
    expect(wrong.output).toMatch(
      new RegExp(`^FAILED: signing in as "${system.admin.username}" answered 401: `),
    );
  });

  it('stops every process cleanly on SIGTERM (exit code 0)', async () => {
    const exits = [...system.children.entries()].map(
      ([name, child]: [string, ChildProcess]) =>
        new Promise<[string, number | null]>((resolve) =>
          child.once('exit', (code) => resolve([name, code])),
        ),
    );
    await system.stop();
    const codes = Object.fromEntries(await Promise.all(exits));
    expect(codes).toEqual({ auth: 0, inventory: 0, media: 0, monitor: 0, gateway: 0 });
  });
});
