import {
  type ApiTokenCreated,
  apiTokenMessages,
  type Building,
  ErrorCode,
  type Room,
  type User,
} from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { SESSION_ROW_TTL_MS } from '../src/session/session-store';
import { type SseEvent, openEvents, type SseStream } from './sse-client';
import { fetch, type Gateway, signIn, startAuthAndGateway, startGateway } from './support';

const keepAliveMs = 300;

/**
 * `GET /api/events` through two gateway replicas on one NATS and one database, with inventory
 * publishing what it commits: every replica follows the live stream on its own, and an id means
 * the same event on both.
 */
describe('live events (GET /api/events)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let replica: Gateway;
  let admin: string;
  const open: SseStream[] = [];

  const call = async <T>(base: string, path: string, method: string, body: unknown, cookie = admin) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const events = async (base: string, cookie: string, lastEventId?: string) => {
    const stream = await openEvents(base, cookie, lastEventId);
    open.push(stream);
    return stream;
  };
  const ready = (s: SseStream) => s.next((e) => e.event === 'ready');
  const changeOf = (id: string) => (e: SseEvent) =>
    e.event === 'inventory.changed' && (e.data as { id: string }).id === id;
  const createUser = async (username: string) => {
    await call<User>(sut.base, '/api/users', 'POST', { username, password: `${username} secret` });
    return signIn(replica.base, username, `${username} secret`);
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({ EVENTS_KEEPALIVE_MS: String(keepAliveMs) }, { inventory: true });
    // No keep-alive check within a test on the replica: its streams can end only by the notices.
    replica = await startGateway(sut.namespace, { EVENTS_KEEPALIVE_MS: '60000' });
    admin = await sut.adminCookie();
  });
  afterEach(() => open.splice(0).forEach((s) => s.close()));
  afterAll(async () => {
    await replica?.close();
    await sut?.close();
  });

  it('refuses a request without a session with 401', async () => {
    const res = await fetch(`${sut.base}/api/events`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
  });

  it('streams without buffering or caching, and a comment between events', async () => {
    const stream = await events(sut.base, admin);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['content-encoding']).toBeUndefined();
    await ready(stream);
    expect(await stream.next((e) => e.event === 'comment')).toEqual({ event: 'comment', data: 'keep-alive' });
  });

  it('sends a change committed through one replica to the streams of both, with the same id and its parents', async () => {
    const [a, b] = [await events(sut.base, admin), await events(replica.base, admin)];
    await Promise.all([ready(a), ready(b)]);
    const building = await call<Building>(replica.base, '/api/buildings', 'POST', { name: 'Live Hall' });
    const room = await call<Room>(sut.base, `/api/buildings/${building.id}/rooms`, 'POST', {
      name: 'L1',
      type: 'Classroom',
      floor: '1',
    });
    for (const stream of [a, b]) {
      expect((await stream.next(changeOf(building.id))).data).toEqual({
        kind: 'building',
        action: 'created',
        id: building.id,
      });
      expect((await stream.next(changeOf(room.id))).data).toEqual({
        kind: 'room',
        action: 'created',
        id: room.id,
        buildingId: building.id,
      });
    }
    expect((await a.next(changeOf(room.id))).id).toBe((await b.next(changeOf(room.id))).id);
  });

  it("announces a person's status change as equipment.status with its room and building", async () => {
    const building = await call<Building>(sut.base, '/api/buildings', 'POST', { name: 'Status Hall' });
    const room = await call<Room>(sut.base, `/api/buildings/${building.id}/rooms`, 'POST', {
      name: 'S1',
      type: 'Classroom',
      floor: '1',
    });
    const equipment = await call<{ id: string }>(sut.base, `/api/rooms/${room.id}/equipment`, 'POST', {
      name: 'Projector',
    });
    const stream = await events(replica.base, admin);
    await ready(stream);
    await call(sut.base, `/api/equipment/${equipment.id}`, 'PUT', { name: 'Projector', status: 'inactive' });
    const status = await stream.next((e) => e.event === 'equipment.status');
    expect(status.data).toEqual({
      changes: [
        {
          equipmentId: equipment.id,
          roomId: room.id,
          buildingId: building.id,
          status: 'inactive',
          lastCheckedAt: null,
          rttMs: null,
        },
      ],
    });
  });

  it('resumes on the other replica after the last id seen, with exactly the events missed', async () => {
    const first = await events(sut.base, admin);
    const building = await call<Building>(sut.base, '/api/buildings', 'POST', { name: 'Resume Hall' });
    const seen = await first.next(changeOf(building.id));
    first.close();

    const rooms: Room[] = [];
    for (const name of ['R1', 'R2', 'R3']) {
      rooms.push(
        await call<Room>(sut.base, `/api/buildings/${building.id}/rooms`, 'POST', {
          name,
          type: 'Classroom',
          floor: '1',
        }),
      );
    }
    // Each room's event is in the stream before the replay is asked for.
    const witness = await events(sut.base, admin, seen.id);
    await witness.next(changeOf(rooms[2].id));

    const resumed = await events(replica.base, admin, seen.id);
    const readyEvent = await ready(resumed);
    const replayed = resumed.events.filter((e) => e.event === 'inventory.changed');
    expect(replayed.map((e) => (e.data as { id: string }).id)).toEqual(rooms.map((r) => r.id));
    expect(replayed.map((e) => Number(e.id))).toEqual([1, 2, 3].map((n) => Number(seen.id) + n));
    expect(readyEvent.id).toBe(replayed[2].id);

    // Then live, without repeating what it replayed.
    const later = await call<Building>(sut.base, '/api/buildings', 'POST', { name: 'After Hall' });
    expect(Number((await resumed.next(changeOf(later.id))).id)).toBe(Number(seen.id) + 4);
    const ids = resumed.events.filter((e) => e.id && e.event !== 'ready').map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);

    // A replica started since has not followed them: it reads them from the stream.
    const late = await startGateway(sut.namespace);
    try {
      // It follows the stream shortly after it starts (503 until then).
      const fromStream = await eventually(async () => {
        const stream = await events(late.base, admin, seen.id);
        expect(stream.status).toBe(200);
        return stream;
      });
      await ready(fromStream);
      expect(
        fromStream.events.filter((e) => e.event === 'inventory.changed').map((e) => [e.id, e.data]),
      ).toEqual(resumed.events.filter((e) => e.event === 'inventory.changed').map((e) => [e.id, e.data]));
    } finally {
      open.splice(0).forEach((s) => s.close());
      await late.close();
    }
  });

  it('tells a client whose id the stream does not know to refetch everything', async () => {
    const stream = await events(replica.base, admin, '999999999');
    const resync = await stream.next((e) => e.event === 'resync');
    const readyEvent = await ready(stream);
    expect(Number(resync.id)).toBeLessThan(999999999);
    expect(readyEvent.id).toBe(resync.id);
  });

  it('ends the stream on one replica when its session is signed out on the other', async () => {
    const { cookie } = await createUser('leaves-live');
    const stream = await events(replica.base, cookie);
    await ready(stream);
    const res = await fetch(`${sut.base}/api/logout`, { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(204);
    await stream.next((e) => e.event === 'ended');
    await stream.end();
    expect((await openEvents(replica.base, cookie)).status).toBe(401);
  });

  it('ends the stream when the user is deactivated', async () => {
    const { cookie, user } = await createUser('deactivated-live');
    const stream = await events(replica.base, cookie);
    await ready(stream);
    await call(sut.base, `/api/users/${user.id}`, 'PUT', { username: user.username, isActive: 0 });
    expect((await stream.next((e) => e.event === 'ended')).data).toEqual({ reason: 'session' });
    await stream.end();
  });

  it('ends the stream at a keep-alive when its session went without a notice (deleted by hand)', async () => {
    const { cookie, user } = await createUser('deleted-quietly');
    const stream = await events(sut.base, cookie);
    await ready(stream);
    await sut.gateway.app
      .get(DataSource)
      .query(`DELETE FROM "${sut.namespace}_gateway".sessions WHERE user_id = $1`, [user.id]);
    // Once the row kept for a few seconds is read again.
    await stream.next((e) => e.event === 'ended', SESSION_ROW_TTL_MS + 30_000);
  });

  it('refuses more streams of one session than allowed with 429 and a message', async () => {
    const { cookie } = await createUser('many-tabs');
    for (let i = 0; i < 10; i++) await ready(await events(sut.base, cookie));
    const res = await fetch(`${sut.base}/api/events`, { headers: { cookie } });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({
      code: ErrorCode.TOO_MANY_STREAMS,
      message: expect.stringContaining('close other tabs'),
    });
  });

  it('takes an API token, and ends its stream when the token is revoked or its user deactivated', async () => {
    const { cookie, user } = await createUser('live-script');
    const inAWeek = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const tokenOf = async (name: string) =>
      call<ApiTokenCreated>(sut.base, '/api/tokens', 'POST', { name, expiresAt: inAWeek }, cookie);
    const byToken = (t: ApiTokenCreated) =>
      openEvents(sut.base, undefined, undefined, { authorization: `Bearer ${t.token}` });

    const revoked = await tokenOf('Dashboard');
    const stream = await byToken(revoked);
    open.push(stream);
    expect(stream.status).toBe(200);
    await ready(stream);
    const gone = await fetch(`${sut.base}/api/tokens/${revoked.id}`, {
      method: 'DELETE',
      headers: { cookie },
    });
    expect(gone.status).toBe(204);
    // Seen at the next keep-alive.
    expect((await stream.next((e) => e.event === 'ended', 20 * keepAliveMs)).data).toEqual({
      reason: 'session',
    });
    await stream.end();
    const refused = await fetch(`${sut.base}/api/events`, {
      headers: { authorization: `Bearer ${revoked.token}` },
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      code: ErrorCode.UNAUTHENTICATED,
      message: apiTokenMessages.invalid,
    });

    const kept = await tokenOf('Wallboard');
    const second = await byToken(kept);
    open.push(second);
    await ready(second);
    await call(sut.base, `/api/users/${user.id}`, 'PUT', { username: user.username, isActive: 0 });
    await second.next((e) => e.event === 'ended');
    await second.end();
    expect((await byToken(kept)).status).toBe(401);
  });

  // On a replica just started, so that the first reading of the stream's position (which also
  // connects to JetStream) keeps every request waiting at once, as a burst does under load.
  it('holds at most the allowed streams of one session when many are asked for at once, and frees their places when they close', async () => {
    const fresh = await startGateway(sut.namespace, { EVENTS_KEEPALIVE_MS: '60000' });
    try {
      const { cookie } = await createUser('burst-tabs');
      const asked = await Promise.all(Array.from({ length: 30 }, () => events(fresh.base, cookie)));
      expect(asked.filter((s) => s.status === 200)).toHaveLength(10);
      expect(asked.filter((s) => s.status === 429)).toHaveLength(20);

      for (const s of open.splice(0)) s.close();
      // The server sees the closes in its own time.
      await eventually(async () => expect((await events(fresh.base, cookie)).status).toBe(200));
    } finally {
      for (const s of open.splice(0)) s.close();
      await fresh.close();
    }
  });

  it('holds at most the allowed streams of the replica when many are asked for at once', async () => {
    const fresh = await startGateway(sut.namespace, {
      EVENTS_MAX_STREAMS: '3',
      EVENTS_KEEPALIVE_MS: '60000',
    });
    try {
      const { cookie } = await createUser('burst-replica');
      const asked = await Promise.all(Array.from({ length: 9 }, () => events(fresh.base, cookie)));
      expect(asked.filter((s) => s.status === 200)).toHaveLength(3);
      expect(asked.filter((s) => s.status === 503)).toHaveLength(6);
    } finally {
      for (const s of open.splice(0)) s.close();
      await fresh.close();
    }
  });
});
