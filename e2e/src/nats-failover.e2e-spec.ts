import { type Building, type Equipment, namespacedName, type Room, streams } from '@cm/contracts';
import {
  eventually as retry,
  type LoopAnswer,
  OwnNatsCluster,
  outageOf,
  RequestLoop,
} from '@cm/platform/testing';
import { sessionApi, signIn } from './session';
import { startSystem } from './stack';

const eventually = <T>(check: () => Promise<T> | T, timeoutMs = 60_000) => retry(check, timeoutMs, 250);

/**
 * A request this long waited out a deadline: one lost with the server would have waited for its
 * reply until NATS_REQUEST_TIMEOUT_MS, raised here to 20 s so that nothing but such a wait comes
 * near this, however loaded the machine. A request the failover costs nothing takes milliseconds;
 * how long the failover holds requests up (the goal: under 2 s) is measured by bench/failover.
 */
const REQUEST_TIMEOUT_MS = 20_000;
const STALL_MS = REQUEST_TIMEOUT_MS / 2;

describe('the whole system on a cluster of three NATS servers when the status stream’s leader is killed', () => {
  let cluster: OwnNatsCluster;
  let system: Awaited<ReturnType<typeof startSystem>>;
  let cookie = '';
  let statusStream = '';
  let roomId = '';
  let killed = -1;
  let killedAt = 0;

  const api = sessionApi(
    () => system.url,
    () => cookie,
  );

  beforeAll(async () => {
    cluster = await OwnNatsCluster.start(3);
    system = await startSystem({
      NATS_URL: cluster.url,
      NATS_STREAM_REPLICAS: '3',
      NATS_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      MONITOR_INTERVAL_MS: '2000',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
    statusStream = namespacedName(system.namespace, streams.status.name);
    cookie = await signIn(system.url, system.admin.username, system.admin.password);
    const building = await api<Building>('POST', '/api/buildings', { name: 'Failover Hall' });
    const room = await api<Room>('POST', `/api/buildings/${building.body.id}/rooms`, {
      name: '101',
      type: 'Classroom',
      floor: '1',
    });
    roomId = room.body.id;
    await api<Equipment>('POST', `/api/rooms/${roomId}/equipment`, {
      roomId,
      name: 'Projector',
      ipAddress: '127.0.0.1',
    });
    expect((await api('POST', '/api/monitoring/start')).status).toBe(200);
  });

  afterAll(async () => {
    await system?.close();
    await cluster?.close();
  });

  const lastChecked = async () => {
    const { body } = await api<Equipment[]>('GET', `/api/rooms/${roomId}/equipment`);
    return body[0]?.lastCheckedAt ? Date.parse(body[0].lastCheckedAt) : 0;
  };

  it('keeps three copies of the status stream, and records statuses', async () => {
    await eventually(() =>
      cluster.allCopiesCurrent(statusStream).then((current) => expect(current).toBe(true)),
    );
    const info = await cluster.withJetStream((jsm) => jsm.streams.info(statusStream));
    expect(info.config.num_replicas).toBe(3);
    await eventually(async () => expect(await lastChecked()).toBeGreaterThan(0));
  });

  it('answers every API request, none waiting out a deadline, when the server that leads the status stream and serves the gateway is killed', async () => {
    // The worst case of the issue: the gateway's own connection goes with the stream's leader
    // (requests in flight on it, and those made until it reconnects).
    const gatewayServer = await cluster.serverOf('gateway-client');
    expect(gatewayServer).toBeDefined();
    await cluster.makeLeader(statusStream, gatewayServer!);
    killed = gatewayServer!;

    const loop = RequestLoop.start(`${system.url}/api/buildings`, {
      headers: { cookie },
      clients: 8,
      pauseMs: 20,
    });
    let answers: LoopAnswer[];
    try {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      killedAt = Date.now();
      await cluster.servers[killed].down('SIGKILL');
      // The gateway is on another server, and the stream has another leader.
      await eventually(async () => {
        const now = await cluster.serverOf('gateway-client');
        expect(now === undefined || now === killed).toBe(false);
      });
      await eventually(async () => expect(await cluster.leaderOf(statusStream)).not.toBe(killed));
      await new Promise((resolve) => setTimeout(resolve, 2000));
    } finally {
      answers = await loop.stop();
    }
    const outage = outageOf(answers, STALL_MS);
    const after = answers.filter((a) => a.endedAt > killedAt);
    const describe = (a: LoopAnswer) =>
      `${a.status} ${Math.round(a.endedAt - a.startedAt)} ms, sent ${Math.round(a.startedAt - killedAt)} ms after the kill: ${a.error ?? ''}`;
    expect({
      failed: outage.failed.map(describe),
      stalled: outage.stalled.map(describe),
    }).toEqual({ failed: [], stalled: [] });
    // Requests went on throughout: some were answered after the kill, and before the test ended.
    expect(after.length).toBeGreaterThan(20);
  });

  it('records statuses again, published to the stream’s new leader', async () => {
    await eventually(async () => expect(await lastChecked()).toBeGreaterThan(killedAt), 90_000);
  }, 120_000);

  it('takes the killed server back: its copy of the status stream catches up', async () => {
    await cluster.servers[killed].up();
    await eventually(() =>
      cluster.allCopiesCurrent(statusStream).then((current) => expect(current).toBe(true)),
    );
    expect((await api('GET', '/api/buildings')).status).toBe(200);
  });
});
