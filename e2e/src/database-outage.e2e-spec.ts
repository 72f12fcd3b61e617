import { createServer, type Server, type Socket, connect } from 'node:net';
import { type Building } from '@cm/contracts';
import { testDatabaseUrl } from '@cm/platform/testing';
import { eventually as retry } from '@cm/platform/testing';
import { sessionApi, signIn } from './session';
import { startSystem } from './stack';

const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 60_000) => retry(check, timeoutMs, 250);

/**
 * A TCP relay on loopback in front of the shared PostgreSQL: `cut` drops every connection and
 * refuses new ones, as an outage or a failover does, without touching the server others use.
 */
class DatabaseRelay {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  port = 0;

  constructor(private readonly target: URL) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port || 5432), this.target.hostname);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        this.sockets.add(a);
        a.on('error', () => b.destroy());
        a.on('close', () => {
          this.sockets.delete(a);
          b.destroy();
        });
        a.pipe(b);
      }
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }

  url(): string {
    const url = new URL(this.target);
    url.port = String(this.port);
    return url.toString();
  }
}

describe('the whole system across a PostgreSQL outage', () => {
  const relay = new DatabaseRelay(new URL(testDatabaseUrl));
  let system: Awaited<ReturnType<typeof startSystem>>;
  let cookie = '';

  const api = sessionApi(
    () => system.url,
    () => cookie,
  );

  beforeAll(async () => {
    await relay.open();
    system = await startSystem({ DATABASE_URL: relay.url() });
    cookie = await signIn(system.url, system.admin.username, system.admin.password);
  });

  afterAll(async () => {
    await system?.close();
    await relay.cut();
  });

  it('answers with an error while it is away, says it is not ready, and recovers without a restart', async () => {
    expect((await api('POST', '/api/buildings', { name: 'Before' })).status).toBe(201);
    await relay.cut();

    const during = await api<{ code: string; message: string }>('GET', '/api/buildings');
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ code: 'COMMON.SERVICE_UNAVAILABLE' });
    const ready = await fetch(`${system.url}/api/readyz`);
    expect(ready.status).toBe(503);

    await relay.open();
    await eventually(async () => expect((await fetch(`${system.url}/api/status/system`)).status).toBe(200));
    expect((await api('POST', '/api/buildings', { name: 'After' })).status).toBe(201);
    const list = await api<Building[]>('GET', '/api/buildings');
    expect(list.body.map((b) => b.name).sort()).toEqual(['After', 'Before']);
    expect([...system.children.keys()].sort()).toEqual(['auth', 'gateway', 'inventory', 'media', 'monitor']);
  });
});
