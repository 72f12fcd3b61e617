import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import {
  type Building,
  type Equipment,
  ErrorCode,
  events,
  type HealthReport,
  type Room,
  type StatusEvent,
} from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually as retry, testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { dropNamespace } from '../../services/monitor/test/nats-helpers';
import { signIn } from './session';
import { startSystem } from './stack';

const root = path.resolve(__dirname, '../..');
const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 60_000) => retry(check, timeoutMs, 200);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

type Service = 'auth' | 'inventory' | 'media' | 'monitor' | 'gateway';

interface Outcome {
  path: string;
  status?: number;
  /** The answer's body when it was not a success, to say what went wrong. */
  body?: string;
  /** A connection refused or reset before any answer: the request was never accepted. */
  refused?: string;
}

/**
 * Clients that keep calling until told to stop, each with its own session. Like a load balancer,
 * `pick` says which gateway a call goes to; a call refused by one goes to the next.
 */
class Load {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly workers: Promise<void>[];

  constructor(
    cookies: string[],
    paths: string[],
    private readonly gateways: () => string[],
    private readonly expected: Record<string, number> = {},
  ) {
    this.workers = cookies.map((cookie, i) => this.work(cookie, paths, i));
  }

  async stop(): Promise<Outcome[]> {
    this.running = false;
    await Promise.all(this.workers);
    return this.outcomes;
  }

  /** Waits until `n` more calls have been answered. */
  async answered(n: number): Promise<void> {
    const target = this.answers() + n;
    await eventually(() => expect(this.answers()).toBeGreaterThanOrEqual(target));
  }

  /** Answers other than the one each call gets when all is well. */
  failures(): Outcome[] {
    return this.outcomes.filter((o) => o.status !== undefined && o.status !== (this.expected[o.path] ?? 200));
  }

  private answers(): number {
    return this.outcomes.filter((o) => o.status !== undefined).length;
  }

  private async work(cookie: string, paths: string[], offset: number): Promise<void> {
    for (let i = offset; this.running; i++) {
      const p = paths[i % paths.length];
      let outcome: Outcome | undefined;
      for (const base of this.gateways()) {
        try {
          const res = await fetch(`${base}${p}`, { headers: { cookie } });
          const text = await res.text();
          outcome = res.ok ? { path: p, status: res.status } : { path: p, status: res.status, body: text };
          break;
        } catch (error) {
          outcome = { path: p, refused: String((error as Error).cause ?? error) };
        }
      }
      this.outcomes.push(outcome!);
      if (outcome?.refused) await sleep(50);
    }
  }
}

/**
 * Faults an operator meets, against the whole system as processes: a service stopped while events
 * pile up, the gateway killed and started again, and a rolling restart of every process under load.
 */
describe('resilience of the whole system', () => {
  let system: Awaited<ReturnType<typeof startSystem>>;
  const extra: ChildProcess[] = [];
  /** The process currently serving each service (replacements take over from the originals). */
  const current = new Map<Service, ChildProcess>();
  const cookies: string[] = [];
  const equipment: Equipment[] = [];
  let gatewayPort = 0;

  /**
   * Starts one more process of a service with the system's environment; resolves once it is ready,
   * with what its ready line says (where it listens).
   */
  async function startProcess(
    service: Service,
    env: Record<string, string> = {},
  ): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [path.join(root, 'services', service, 'dist', 'main.js')], {
      env: { ...system.env, HTTP_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    extra.push(child);
    const ready = service === 'gateway' ? 'Classroom Monitor is at' : `"${service} ready"`;
    const line = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${service} exited with ${code} during start-up`)));
      for (const stream of [child.stdout!, child.stderr!]) {
        readline.createInterface({ input: stream }).on('line', (text) => {
          system.logs.push(`${service}+ ${text}`);
          if (text.includes(ready)) resolve(text);
        });
      }
    });
    child.removeAllListeners('exit');
    const said = JSON.parse(line) as { url?: string; httpPort?: number };
    const url = said.url ?? `http://127.0.0.1:${said.httpPort}`;
    // As a rolling update does: the old process goes only once the new one is ready.
    if (service !== 'gateway')
      await eventually(async () => expect((await fetch(`${url}/readyz`)).status).toBe(200));
    return { child, url };
  }

  const api = async <T>(method: string, p: string, body?: unknown) => {
    const res = await fetch(`${system.url}${p}`, {
      method,
      headers: { cookie: cookies[0], ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };

  const db = async <R>(query: string): Promise<R[]> => {
    const client = new Client({ connectionString: testDatabaseUrl });
    await client.connect();
    try {
      return (await client.query(query)).rows as R[];
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    system = await startSystem({
      // Events a stopping inventory had pulled but not started come back within two seconds.
      INVENTORY_STATUS_ACK_WAIT_MS: '2000',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    gatewayPort = Number(new URL(system.url).port);
    for (const [service, child] of system.children) current.set(service as Service, child);
    // One after another: sign-ins in flight at once count against the sign-in throttle.
    for (let i = 0; i < 8; i++)
      cookies.push(await signIn(system.url, system.admin.username, system.admin.password));
    const building = await api<Building>('POST', '/api/buildings', { name: 'Fault Hall' });
    const room = await api<Room>('POST', `/api/buildings/${building.body.id}/rooms`, {
      name: '1',
      type: 'Office',
      floor: '1',
    });
    for (let i = 0; i < 10; i++) {
      const created = await api<Equipment>('POST', `/api/rooms/${room.body.id}/equipment`, {
        roomId: room.body.id,
        name: `E${i}`,
        ipAddress: `127.0.1.${i + 1}`,
      });
      equipment.push(created.body);
    }
  });

  afterAll(async () => {
    for (const child of extra) if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.all(extra.map(exitOf));
    await system?.close();
    if (system) await dropNamespace(system.namespace);
  });

  it('persists exactly once all of 1,000 status events published while inventory is stopped and started again', async () => {
    const monitor = await JetStreamConnection.connect({
      namespace: system.namespace,
      servers: system.env.NATS_URL,
      name: 'resilience-monitor',
      timeoutMs: 5000,
    });
    const start = Date.now();
    const publish = async (i: number) => {
      const event: StatusEvent = {
        eventId: `fault-${i}`,
        equipmentId: equipment[i % equipment.length].id,
        sweepId: `fault-${i}`,
        status: i % 2 ? 'active' : 'inactive',
        checkedAt: new Date(start + i).toISOString(),
        rttMs: null,
        results: [{ address: '127.0.1.1', alive: false, rttMs: null }],
      };
      await monitor.publish(events.statusChecked, event, { msgId: event.eventId });
    };
    try {
      for (let i = 0; i < 300; i++) await publish(i);
      const inventory = current.get('inventory')!;
      inventory.kill('SIGTERM');
      for (let i = 300; i < 600; i++) await publish(i);
      expect(await exitOf(inventory)).toBe(0);

      // While it is away the gateway says so at once, and the system status shows which service is
      // missing; the gateway itself stays ready, so its other routes keep being served.
      const list = await api<{ code: string; message: string }>('GET', '/api/buildings');
      expect(list).toEqual({
        status: 503,
        body: expect.objectContaining({
          code: ErrorCode.SERVICE_UNAVAILABLE,
          message: 'The inventory service is unavailable. Try again shortly.',
        }),
      });
      expect((await fetch(`${system.url}/api/readyz`)).status).toBe(200);
      const state = await fetch(`${system.url}/api/status/system`, { headers: { cookie: cookies[0] } });
      expect(state.status).toBe(503);
      expect(((await state.json()) as HealthReport).checks.inventory).toMatchObject({ status: 'down' });

      for (let i = 600; i < 1000; i++) await publish(i);
      current.set('inventory', (await startProcess('inventory')).child);
    } finally {
      await monitor.close();
    }

    // Each check counted once: the counters (current hours and days) add up to the events sent, and every event set
    // its equipment's last check (the newest of each). The restarted inventory works through the 700 it missed:
    // with a CPU hog beside the other lanes it had counted 978 after 30 s, so the wait is for what it does, not
    // how fast (2 minutes guard a hang).
    const schema = `${system.namespace}_inventory`;
    const counted = await eventually(async () => {
      const [row] = await db<{ checks: number }>(
        `SELECT (SELECT COALESCE(sum(hour_checks), 0) FROM ${schema}.equipment_state)::int
              + (SELECT COALESCE(sum(checks), 0) FROM ${schema}.status_days)::int AS checks`,
      );
      expect(row.checks).toBeGreaterThanOrEqual(1000);
      return row;
    }, 120_000);
    expect(counted).toEqual({ checks: 1000 });
    const last = await db<{ id: string; at: Date }>(
      `SELECT equipment_id AS id, last_checked_at AS at FROM ${schema}.equipment_state`,
    );
    for (const [i, e] of equipment.entries()) {
      const newest = 1000 - equipment.length + i;
      expect(last.find((l) => l.id === e.id)?.at).toEqual(new Date(start + newest));
    }
    expect((await api('GET', '/api/buildings')).status).toBe(200);
  }, 300_000);

  it('keeps every session valid when the gateway is killed under signed-in load and started again', async () => {
    const load = new Load(cookies, ['/api/buildings', '/api/auth/user'], () => [system.url]);
    await load.answered(50);
    const gateway = current.get('gateway')!;
    gateway.kill('SIGKILL');
    await exitOf(gateway);
    await sleep(500);
    current.set('gateway', (await startProcess('gateway', { PORT: String(gatewayPort) })).child);
    await load.answered(50);
    const outcomes = await load.stop();

    expect(outcomes.some((o) => o.refused)).toBe(true); // the load did meet the outage
    // Requests cut by the kill never got an answer; every answer, before and after, was a success.
    expect(load.failures()).toEqual([]);
    for (const cookie of cookies) {
      const res = await fetch(`${system.url}/api/auth/user`, { headers: { cookie } });
      expect(res.status).toBe(200);
    }
  });

  it('answers every accepted request while each process in turn is replaced with SIGTERM under load', async () => {
    let live = [system.url];
    // A missing object is media's to say: it answers 404 through the gateway.
    const missingObject = '/objects/rooms/00000000-0000-4000-8000-000000000000.jpg';
    const load = new Load(
      cookies,
      ['/api/buildings', '/api/auth/user', '/api/monitoring/status', missingObject],
      () => live,
      { [missingObject]: 404 },
    );
    const exits: Record<string, number | null> = {};
    try {
      for (const service of ['auth', 'inventory', 'media', 'monitor'] as const) {
        const old = current.get(service)!;
        current.set(service, (await startProcess(service)).child);
        await load.answered(30);
        old.kill('SIGTERM');
        exits[service] = await exitOf(old);
        await load.answered(30);
      }
      // Two gateways behind a balancer that sends a refused call to the other one. The second binds
      // a port the system picks: one chosen beforehand can be taken by an outgoing connection meanwhile.
      const second = await startProcess('gateway', { PORT: '0' });
      live = [system.url, second.url];
      await load.answered(30);
      const old = current.get('gateway')!;
      old.kill('SIGTERM');
      exits.gateway = await exitOf(old);
      live = [second.url];
      current.set('gateway', second.child);
      await load.answered(30);
    } finally {
      await load.stop();
    }
    expect(exits).toEqual({ auth: 0, inventory: 0, media: 0, monitor: 0, gateway: 0 });
    expect(load.failures()).toEqual([]);
    // A call refused by the stopping gateway went to the other: none was left without an answer.
    expect(load.outcomes.filter((o) => o.status === undefined)).toEqual([]);
    // Five processes replaced one after another, each waiting to be ready: minutes on a busy machine.
  }, 300_000);
});
