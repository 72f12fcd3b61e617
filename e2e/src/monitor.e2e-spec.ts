import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import {
  type Building,
  type Equipment,
  ErrorCode,
  type MonitoringCheckResult,
  type Room,
} from '@cm/contracts';
import { eventually as retry, NetnsLab } from '@cm/platform/testing';
import { dropNamespace, StatusEvents } from '../../services/monitor/test/nats-helpers';
import { sessionHeaders, signIn } from './session';
import { startSystem } from './stack';

const monitorMain = path.resolve(__dirname, '../../services/monitor/dist/main.js');
const eventually = <T>(check: () => Promise<T>, timeoutMs = 30_000) => retry(check, timeoutMs, 200);

/**
 * The Settings › Monitoring calls against the whole system: the monitor pings what inventory
 * holds (loopback and a network namespace made here, nothing else: MONITOR_ALLOWED_NETWORKS
 * fences it), inventory records what it publishes, and extra monitor processes share the work.
 */
describe('monitoring through the gateway', () => {
  let lab: NetnsLab;
  let system: Awaited<ReturnType<typeof startSystem>>;
  let statuses: StatusEvents;
  let cookie: Record<string, string> = {};
  const extraReplicas: ChildProcess[] = [];
  const ids: Record<string, string> = {};
  let roomId = '';

  const api = async <T = unknown>(method: string, path: string, body?: unknown, headers = cookie) => {
    const res = await fetch(`${system.url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };
  const equipmentById = async () =>
    new Map((await api<Equipment[]>('GET', `/api/rooms/${roomId}/equipment`)).body.map((e) => [e.id, e]));

  beforeAll(async () => {
    lab = NetnsLab.create();
    system = await startSystem({
      MONITOR_INTERVAL_MS: '2000',
      MONITOR_PING_TIMEOUT_MS: '300',
      MONITOR_PING_RETRIES: '1',
      MONITOR_MEMBER_TTL_MS: '3000',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8,198.18.0.0/15',
    });
    statuses = await StatusEvents.listen(system.namespace);
    cookie = sessionHeaders(await signIn(system.url, system.admin.username, system.admin.password));
    const building = await api<Building>('POST', '/api/buildings', { name: 'Science Hall' });
    const room = await api<Room>('POST', `/api/buildings/${building.body.id}/rooms`, {
      name: '101',
      type: 'Classroom',
      floor: '1',
      capacity: 24,
    });
    roomId = room.body.id;
    const add = async (name: string, ipAddress: string, status = 'active') =>
      (ids[name] = (
        await api<Equipment>('POST', `/api/rooms/${roomId}/equipment`, { roomId, name, ipAddress, status })
      ).body.id);
    await add('projector', '127.0.0.5');
    await add('dark display', `${lab.routedPrefix}.3`);
    await add('switch range', lab.straddlingRange);
    await add('under repair', '127.0.0.6', 'maintenance');
    await add('no address', '');
  });

  afterAll(async () => {
    for (const child of extraReplicas) child.kill('SIGKILL');
    await statuses?.close();
    await system?.close();
    if (system) await dropNamespace(system.namespace);
    lab?.destroy();
  });

  it('needs a session', async () => {
    expect(await api('GET', '/api/monitoring/status', undefined, {})).toMatchObject({
      status: 401,
      body: { code: ErrorCode.UNAUTHENTICATED },
    });
  });

  it('is stopped until started, with its interval in milliseconds', async () => {
    expect(await api('GET', '/api/monitoring/status')).toEqual({
      status: 200,
      body: { isRunning: false, interval: 2000 },
    });
  });

  it('Check Now pings every address once and inventory records the results; maintenance stays', async () => {
    // The monitor learns of the new equipment from inventory's change events.
    const check = await eventually(async () => {
      const res = await api<MonitoringCheckResult>('POST', '/api/monitoring/check');
      expect(res).toMatchObject({ status: 200, body: { completed: true, targets: 4 } });
      return res.body;
    });
    expect(check).toEqual({
      completed: true,
      targets: 4,
      answered: 3,
      durationMs: expect.any(Number),
      message: 'Checked 4 equipment: 3 answered',
    });

    await eventually(async () => {
      const equipment = await equipmentById();
      expect(
        Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, equipment.get(id)?.status])),
      ).toEqual({
        projector: 'active',
        'dark display': 'inactive',
        'switch range': 'partial',
        'under repair': 'maintenance',
        'no address': 'active',
      });
      // Checked, and the check recorded, but a person's maintenance status is not replaced.
      expect(equipment.get(ids['under repair'])?.lastCheckedAt).not.toBeNull();
      expect(equipment.get(ids['no address'])?.lastCheckedAt).toBeNull();
    });
    expect((await api('GET', '/api/monitoring/status')).body).toEqual({ isRunning: false, interval: 2000 });
  });

  it('once started, sweeps on its own and picks up a changed address', async () => {
    expect(await api('POST', '/api/monitoring/start')).toEqual({
      status: 200,
      body: { isRunning: true, interval: 2000 },
    });
    const edit = await api('PUT', `/api/equipment/${ids['dark display']}`, {
      roomId,
      name: 'dark display',
      ipAddress: '127.0.0.7',
      status: 'inactive',
    });
    expect(edit.status).toBe(200);
    await eventually(async () => {
      expect((await equipmentById()).get(ids['dark display'])?.status).toBe('active');
    });
  });

  it('with three monitor processes, one killed mid-sweep, the next sweep covers every equipment exactly once', async () => {
    const env = { ...system.env, HTTP_PORT: '0' } as NodeJS.ProcessEnv;
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, [monitorMain], { env, stdio: 'ignore' });
      extraReplicas.push(child);
    }
    const everyone = Object.values(ids)
      .filter((id) => id !== ids['no address'])
      .sort();
    const onceEach = (sweepId: string) => {
      const counts = statuses.countsIn(sweepId);
      expect({ sweepId, ids: [...counts.keys()].sort(), counts: [...new Set(counts.values())] }).toEqual({
        sweepId,
        ids: everyone,
        counts: [1],
      });
    };
    // Let the extra processes join (they load the list first), then see two whole sweeps.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const from = statuses.sweeps().length;
    await eventually(async () => expect(statuses.sweeps().length).toBeGreaterThanOrEqual(from + 3));
    for (const sweepId of statuses.sweeps().slice(from, from + 2)) onceEach(sweepId);

    // SIGKILL: no goodbye. Its membership lapses after MONITOR_MEMBER_TTL_MS; until then an
    // assignment to it gets no answer and is handed to the others.
    const started = statuses.sweeps().length;
    await eventually(async () => expect(statuses.sweeps().length).toBe(started + 1), 60_000);
    extraReplicas[0].kill('SIGKILL');
    await eventually(async () => expect(statuses.sweeps().length).toBeGreaterThanOrEqual(started + 3));
    const [interrupted, next] = statuses.sweeps().slice(started, started + 2);
    expect([...statuses.countsIn(interrupted).keys()].sort()).toEqual(everyone);
    onceEach(next);
  });

  it('Stop Monitoring ends the scheduled sweeps', async () => {
    expect(await api('POST', '/api/monitoring/stop')).toEqual({
      status: 200,
      body: { isRunning: false, interval: 2000 },
    });
    const stoppedAt = Date.now();
    // Room for two more sweeps at the 2 s interval, had Stop not ended them.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    // A sweep fired before the stop may still be under way and report, however long a loaded
    // machine takes; none may fire after it. A sweep id begins with when it fired.
    const firedAt = (sweepId: string) => parseInt(sweepId.split('-')[0], 36);
    expect(statuses.sweeps().filter((sweepId) => firedAt(sweepId) > stoppedAt)).toEqual([]);
    // (The ids do read as times: each sweep of this file fired within the hour.)
    for (const sweepId of statuses.sweeps()) expect(firedAt(sweepId)).toBeGreaterThan(stoppedAt - 3_600_000);
  });
});
