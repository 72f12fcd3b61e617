import { type HealthReport } from '@cm/contracts';
import { type ChildProcess } from 'node:child_process';
import { startSystem } from './stack';

describe('the whole system', () => {
  let system: Awaited<ReturnType<typeof startSystem>>;

  beforeAll(async () => {
    system = await startSystem();
  });
  afterAll(() => system?.close());

  it('is ready: HTTP → gateway → NATS → every service → PostgreSQL', async () => {
    const res = await fetch(`${system.url}/api/readyz`);
    expect(res.status).toBe(200);
    const report = (await res.json()) as HealthReport;
    expect(report.status).toBe('up');
    for (const part of ['gateway', 'auth', 'inventory', 'media', 'monitor', 'postgres']) {
      expect(report.checks[part]).toMatchObject({ status: 'up' });
    }
  });

  it('serves the built web app and the API description', async () => {
    const page = await fetch(`${system.url}/buildings`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const docs = await fetch(`${system.url}/api/docs`);
    expect(((await docs.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });

  it('prints a generated administrator password once, on the first start only', () => {
    const lines = system.logs.filter((l) => l.includes('Created administrator'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/generated password \S{12,}/);
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
