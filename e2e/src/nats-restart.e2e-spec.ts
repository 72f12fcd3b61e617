import { type Building, type Equipment, events, type Room } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { OwnNatsServer, eventually as retry } from '@cm/platform/testing';
import { sessionApi, signIn } from './session';
import { startSystem } from './stack';

const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 60_000) => retry(check, timeoutMs, 250);

describe('the whole system across a restart of the NATS server', () => {
  let nats: OwnNatsServer;
  let system: Awaited<ReturnType<typeof startSystem>>;
  let cookie = '';

  const api = sessionApi(
    () => system.url,
    () => cookie,
  );

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    system = await startSystem({ NATS_URL: nats.url, NATS_REQUEST_TIMEOUT_MS: '3000' });
    cookie = await signIn(system.url, system.admin.username, system.admin.password);
  });

  afterAll(async () => {
    await system?.close();
    await nats?.close();
  });

  it('recovers without a restart of any service and loses no write it accepted', async () => {
    const accepted: string[] = [];
    const answers: number[] = [];
    let refusal: unknown;
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const res = await api<Building>('POST', '/api/buildings', { name: `Hall ${n++}` }).catch(() => null);
        if (res) answers.push(res.status);
        if (res?.status === 503) refusal = res.body;
        if (res?.status === 201) accepted.push(res.body.id);
        else await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await eventually(() => expect(accepted.length).toBeGreaterThanOrEqual(20));
    await nats.down();
    // While NATS is away the gateway answers that the service is unavailable, at once once it has
    // waited 2 s for a reconnection (requests in flight when it went may time out instead), and
    // says it is not ready.
    await eventually(() => expect(answers.slice(-3)).toEqual([503, 503, 503]));
    expect(refusal).toMatchObject({
      code: 'COMMON.SERVICE_UNAVAILABLE',
      message: expect.stringMatching(/^The (auth|inventory) service is unavailable\. Try again shortly\.$/),
    });
    expect((await fetch(`${system.url}/api/readyz`)).status).toBe(503);
    await nats.up();
    const before = accepted.length;
    await eventually(() => expect(accepted.length).toBeGreaterThanOrEqual(before + 20));
    writing = false;
    await writer;

    expect([...new Set(answers)].filter((s) => ![201, 503, 504].includes(s))).toEqual([]);
    const list = await api<Building[]>('GET', '/api/buildings');
    const stored = new Set(list.body.map((b) => b.id));
    expect(accepted.filter((id) => !stored.has(id))).toEqual([]);
    await eventually(async () => expect((await fetch(`${system.url}/api/status/system`)).status).toBe(200));
    expect([...system.children.keys()].sort()).toEqual(['auth', 'gateway', 'inventory', 'media', 'monitor']);
  });

  it('records status events again once the stream is back: inventory’s consumer resumes', async () => {
    const building = await api<Building>('POST', '/api/buildings', { name: 'After' });
    const room = await api<Room>('POST', `/api/buildings/${building.body.id}/rooms`, {
      name: '1',
      type: 'Office',
      floor: '1',
    });
    const equipment = await api<Equipment>('POST', `/api/rooms/${room.body.id}/equipment`, {
      roomId: room.body.id,
      name: 'projector',
      ipAddress: '127.0.0.9',
      status: 'inactive',
    });
    const monitor = await JetStreamConnection.connect({
      namespace: system.namespace,
      servers: nats.url,
      name: 'nats-restart-monitor',
      timeoutMs: 5000,
    });
    try {
      await monitor.publish(
        events.statusChecked,
        {
          eventId: `after-restart:${equipment.body.id}`,
          equipmentId: equipment.body.id,
          sweepId: 'after-restart',
          status: 'active',
          checkedAt: new Date().toISOString(),
          rttMs: 0.1,
          results: [{ address: '127.0.0.9', alive: true, rttMs: 0.1 }],
        },
        { msgId: `after-restart:${equipment.body.id}` },
      );
    } finally {
      await monitor.close();
    }
    await eventually(async () => {
      const list = await api<Equipment[]>('GET', `/api/rooms/${room.body.id}/equipment`);
      expect(list.body[0]?.status).toBe('active');
    });
  });
});
