import { randomBytes } from 'node:crypto';
import { type AuditEntry, type AuditPage, ErrorCode, messages } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { eventually } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { AUDIT_CLOCK } from '../src/audit/audit-log';
import { AuditRetention } from '../src/audit/audit-retention.service';
import { type Clock } from '../src/throttle/login-throttle.service';
import { adminCredentials, fetch, startAuthAndGateway } from './support';

const clerk = { username: 'clerk', password: 'clerk secret phrase' };

describe('audit log', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  const secrets: string[] = [adminCredentials.password, clerk.password];

  const call = async (path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie: admin, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    };
  };
  const ok = async <T>(path: string, method = 'GET', body?: unknown, headers?: Record<string, string>) => {
    const res = await call(path, method, body, headers);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as T;
  };
  const entriesOf = async (entityType: string, entityId?: string) =>
    (
      await ok<AuditPage>(
        `/api/audit?entityType=${entityType}${entityId ? `&entityId=${encodeURIComponent(entityId)}` : ''}`,
      )
    ).items;
  const only = (entries: AuditEntry[], action: string) => entries.filter((e) => e.action === action);

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      {},
      {
        inventory: true,
        inventoryEnv: {
          ALERTS_SECRET_KEY: randomBytes(32).toString('base64'),
          // A loopback receiver is never called here; listing it keeps the save from asking DNS.
          ALERTS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
          ALERTS_ALLOWED_TARGETS: '127.0.0.1',
        },
      },
    );
    admin = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  it('records a building, a room and equipment created, changed and deleted, with the fields before and after', async () => {
    const building = await ok<{ id: string }>('/api/buildings', 'POST', {
      name: 'Audit Hall',
      description: 'Old wing',
    });
    await ok(`/api/buildings/${building.id}`, 'PUT', { name: 'Audit Hall', description: 'New wing' });
    const room = await ok<{ id: string }>(`/api/buildings/${building.id}/rooms`, 'POST', {
      name: 'A-101',
      type: 'Classroom',
      floor: '1',
    });
    await ok(`/api/rooms/${room.id}`, 'PUT', { name: 'A-102' });
    const device = await ok<{ id: string }>(`/api/rooms/${room.id}/equipment`, 'POST', {
      name: 'Projector',
      type: 'Projector',
    });
    await ok(`/api/equipment/${device.id}`, 'PUT', { name: 'Laser projector' });
    await ok(`/api/equipment/${device.id}`, 'DELETE');

    // A retried create, answered from the first, is one create in the log.
    const retried = { name: 'Retry Hall' };
    const key = { 'idempotency-key': 'audit-retry-1' };
    const first = await ok<{ id: string }>('/api/buildings', 'POST', retried, key);
    expect(await ok<{ id: string }>('/api/buildings', 'POST', retried, key)).toEqual(first);
    expect(only(await entriesOf('building', first.id), 'create')).toHaveLength(1);

    const buildingEntries = await entriesOf('building', building.id);
    expect(only(buildingEntries, 'create')[0]).toMatchObject({
      actorName: 'chief',
      after: { name: 'Audit Hall', description: 'Old wing' },
      before: null,
    });
    expect(only(buildingEntries, 'update')[0]).toMatchObject({
      before: { description: 'Old wing' },
      after: { description: 'New wing' },
    });
    // An update lists only what changed.
    expect(Object.keys(only(buildingEntries, 'update')[0].after!)).toEqual(['description']);

    const roomUpdate = only(await entriesOf('room', room.id), 'update')[0];
    expect(roomUpdate).toMatchObject({ before: { name: 'A-101' }, after: { name: 'A-102' } });

    const deviceEntries = await entriesOf('equipment', device.id);
    expect(deviceEntries.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(deviceEntries[1]).toMatchObject({
      before: { name: 'Projector' },
      after: { name: 'Laser projector' },
    });
    expect(deviceEntries[0]).toMatchObject({
      before: { name: 'Laser projector', roomId: room.id },
      after: null,
    });
    for (const entry of deviceEntries)
      expect(entry).toMatchObject({
        actorId: expect.any(String),
        requestId: expect.any(String),
        clientAddress: expect.any(String),
      });

    await ok(`/api/buildings/${building.id}`, 'DELETE');
    expect(only(await entriesOf('building', building.id), 'delete')[0]).toMatchObject({
      before: { name: 'Audit Hall', description: 'New wing' },
      after: null,
    });
  });

  it('records maintenance windows', async () => {
    const building = await ok<{ id: string }>('/api/buildings', 'POST', { name: 'Window Hall' });
    const startsAt = new Date(Date.now() + 3600_000).toISOString();
    const endsAt = new Date(Date.now() + 7200_000).toISOString();
    const window = await ok<{ id: string }>('/api/maintenance-windows', 'POST', {
      buildingId: building.id,
      startsAt,
      endsAt,
      reason: 'Rewiring',
    });
    await ok(`/api/maintenance-windows/${window.id}`, 'PUT', { reason: 'Rewiring, floor 2' });
    await ok(`/api/maintenance-windows/${window.id}`, 'DELETE');
    const entries = await entriesOf('maintenanceWindow', window.id);
    expect(entries.map((e) => e.action)).toEqual(['delete', 'update', 'create']);
    expect(entries[1]).toMatchObject({
      before: { reason: 'Rewiring' },
      after: { reason: 'Rewiring, floor 2' },
    });
  });

  it("records a building's teaching hours, set, changed and cleared, under the building's id", async () => {
    const building = await ok<{ id: string }>('/api/buildings', 'POST', { name: 'Quiet Hall' });
    const hours = { days: [1, 2, 3, 4, 5], start: '08:00', end: '18:00', timeZone: 'UTC', outside: 'digest' };
    await ok(`/api/buildings/${building.id}/quiet-hours`, 'PUT', hours);
    await ok(`/api/buildings/${building.id}/quiet-hours`, 'PUT', { ...hours, end: '20:00' });
    await ok(`/api/buildings/${building.id}/quiet-hours`, 'DELETE');
    const entries = await entriesOf('quietHours', building.id);
    expect(entries.map((e) => e.action)).toEqual(['delete', 'update', 'update']);
    expect(entries[1]).toMatchObject({
      before: { quietHours: { end: '18:00' } },
      after: { quietHours: { end: '20:00' } },
    });
  });

  it('records a role change sent to auth on the bus, past the gateway, and one made through the gateway once', async () => {
    const users = await ok<{ id: string; username: string }[]>('/api/users');
    const chief = users.find((u) => u.username === adminCredentials.username)!;
    const target = await ok<{ id: string }>('/api/users', 'POST', {
      username: 'bystander',
      password: 'bystander secret phrase',
    });
    // Straight on the bus, as any client holding NATS credentials could: no session, no route.
    const bus = sut.gateway.app.get(RpcClient);
    const onTheBus = (changes: { role?: 'admin' | 'user'; isActive?: 0 | 1 }) =>
      bus.send(messages.auth.updateUser, {
        actorId: chief.id,
        id: target.id,
        changes: { username: 'bystander', ...changes },
      });
    const updates = () => entriesOf('user', target.id).then((entries) => only(entries, 'update'));

    await onTheBus({ role: 'admin' });
    const [promoted] = await eventually(
      async () => {
        const found = await updates();
        expect(found).toHaveLength(1);
        return found;
      },
      60_000,
      200,
    );
    expect(promoted).toMatchObject({
      actorId: chief.id,
      clientAddress: 'NATS',
      before: { role: 'user', isActive: 1 },
      after: { username: 'bystander', role: 'admin', isActive: 1 },
    });

    // Through the gateway: the interceptor's entry, not auth's event of it as a second one. Events
    // are recorded in order, so once the next change on the bus is there, this one was handled.
    await ok(`/api/users/${target.id}`, 'PUT', { username: 'bystander', role: 'user' });
    await onTheBus({ isActive: 0 });
    const [deactivated, demoted] = await eventually(
      async () => {
        const found = await updates();
        expect(found).toHaveLength(3);
        return found;
      },
      60_000,
      200,
    );
    expect(demoted).toMatchObject({ actorName: adminCredentials.username, after: { role: 'user' } });
    expect(demoted.clientAddress).not.toBe('NATS');
    expect(deactivated).toMatchObject({
      clientAddress: 'NATS',
      before: { role: 'user', isActive: 1 },
      after: { role: 'user', isActive: 0 },
    });
    expect(only(await entriesOf('user', target.id), 'create')).toHaveLength(1);

    // A request id the gateway never had does not pass a message off as the gateway's.
    await bus.send(messages.auth.updateUser, {
      actorId: chief.id,
      id: target.id,
      changes: { username: 'bystander', isActive: 1 },
      requestId: 'made-up-request',
    });
    const [reactivated] = await eventually(
      async () => {
        const found = await updates();
        expect(found).toHaveLength(4);
        return found;
      },
      90_000,
      500,
    );
    expect(reactivated).toMatchObject({
      requestId: 'made-up-request',
      clientAddress: 'NATS',
      after: { isActive: 1 },
    });
  });

  it('records users without their passwords, and channels without their secrets', async () => {
    const user = await ok<{ id: string }>('/api/users', 'POST', clerk);
    const newPassword = 'clerk second phrase';
    secrets.push(newPassword);
    await ok(`/api/users/${user.id}`, 'PUT', { username: 'clerk', firstName: 'Cleo', password: newPassword });
    const userEntries = await entriesOf('user', user.id);
    expect(only(userEntries, 'update')[0]).toMatchObject({
      before: { firstName: null, password: '[redacted]' },
      after: { firstName: 'Cleo', password: '[redacted]' },
    });
    expect(only(userEntries, 'create')[0].after).toMatchObject({ username: 'clerk' });

    const created = await ok<{ id: string; secret: string }>('/api/notification-channels', 'POST', {
      name: 'AV team',
      type: 'webhook',
      url: 'http://127.0.0.1:9/services/T000/B000/pathsecret',
    });
    secrets.push(created.secret, 'pathsecret');
    const rotated = await ok<{ secret: string }>(`/api/notification-channels/${created.id}/secret`, 'POST');
    secrets.push(rotated.secret);
    await ok(`/api/notification-channels/${created.id}`, 'PUT', {
      name: 'AV desk',
      type: 'webhook',
      url: 'http://127.0.0.1:9/services/T000/B000/pathsecret',
    });
    await ok(`/api/notification-channels/${created.id}`, 'DELETE');
    const channelEntries = await entriesOf('channel', created.id);
    expect(channelEntries.map((e) => e.action)).toEqual(['delete', 'update', 'update', 'create']);
    expect(channelEntries[1]).toMatchObject({ before: { name: 'AV team' }, after: { name: 'AV desk' } });
    expect(channelEntries[2].after).toMatchObject({ secret: '[redacted]' });
    expect(channelEntries[3].after).toMatchObject({
      url: 'http://127.0.0.1:9/…',
      secret: '[redacted]',
    });
  });

  it('records equipment probes with which secrets are set, never their values', async () => {
    const building = await ok<{ id: string }>('/api/buildings', 'POST', { name: 'Probe Hall' });
    const room = await ok<{ id: string }>(`/api/buildings/${building.id}/rooms`, 'POST', {
      name: 'P-1',
      type: 'Classroom',
      floor: '1',
    });
    secrets.push('pjlink first password', 'pjlink second password');
    const device = await ok<{ id: string }>(`/api/rooms/${room.id}/equipment`, 'POST', {
      name: 'Projector',
      ipAddress: '10.0.0.7',
      probe: { type: 'pjlink', secrets: { password: 'pjlink first password' } },
    });
    await ok(`/api/equipment/${device.id}`, 'PUT', {
      name: 'Projector',
      probe: { type: 'pjlink', secrets: { password: 'pjlink second password' } },
    });
    const [update, create] = await entriesOf('equipment', device.id);
    expect(create.after).toMatchObject({ probe: { type: 'pjlink', secretsSet: ['password'] } });
    // The password changed, though the probe's settings did not: shown as changed, without values.
    expect(update).toMatchObject({
      action: 'update',
      before: { 'probe.secrets': '[redacted]' },
      after: { 'probe.secrets': '[redacted]' },
    });
  });

  it('records sign-ins, refused sign-ins, token creation, token use and administrators using admin routes', async () => {
    const clerkSession = await sut.signIn(clerk.username, 'clerk second phrase');
    expect(
      (
        await fetch(`${sut.base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-request-id': 'req-wrong-guess' },
          body: JSON.stringify({ username: 'clerk', password: 'a wrong guess of a password' }),
        })
      ).status,
    ).toBe(401);
    secrets.push('a wrong guess of a password');
    const sessions = await entriesOf('session');
    expect(only(sessions, 'sign-in')).toContainEqual(
      expect.objectContaining({
        actorId: clerkSession.user.id,
        actorName: 'clerk',
        entityId: clerkSession.user.id,
      }),
    );
    expect(only(sessions, 'sign-in-failed')[0]).toMatchObject({
      actorId: null,
      actorName: 'clerk',
      count: 1,
      requestId: 'req-wrong-guess',
      after: { username: 'clerk', reason: ErrorCode.INVALID_CREDENTIALS },
    });

    const token = await ok<{ id: string; token: string }>('/api/tokens', 'POST', {
      name: 'Audit export',
      scope: 'admin',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    secrets.push(token.token);
    expect(only(await entriesOf('apiToken', token.id), 'create')[0]).toMatchObject({
      actorName: 'chief',
      after: { name: 'Audit export', role: 'admin', scope: 'admin', token: '[redacted]' },
    });

    const listed = await call('/api/users', 'GET', undefined, {
      cookie: '',
      authorization: `Bearer ${token.token}`,
    });
    expect(listed.status).toBe(200);
    const requestId = listed.headers.get('x-request-id');
    const uses = await entriesOf('route', 'GET /api/users');
    expect(uses[0]).toMatchObject({ action: 'use', actorName: 'chief', apiTokenId: token.id, requestId });
  });

  it('counts refusals of someone not signed in into one entry per address and minute, not a row each', async () => {
    // The log's clock stands still within a minute, then moves to the next: no race with the real one.
    const clock = jest.spyOn(sut.gateway.app.get<Clock>(AUDIT_CLOCK), 'now');
    const callback = async () => {
      const res = await fetch(`${sut.base}/api/auth/oidc/callback?code=guess&state=guess`, {
        redirect: 'manual',
      });
      expect(res.status).toBe(303);
    };
    const burst = async (n: number) => {
      for (let i = 0; i < n; i += 20)
        await Promise.all(Array.from({ length: Math.min(20, n - i) }, callback));
    };
    try {
      clock.mockReturnValue(Date.parse('2026-03-02T10:15:20Z'));
      await burst(200);
      clock.mockReturnValue(Date.parse('2026-03-02T10:16:05Z'));
      await burst(3);
    } finally {
      clock.mockRestore();
    }
    const { items } = await ok<AuditPage>(
      '/api/audit?entityType=session&from=2026-03-02T10:00:00Z&to=2026-03-02T11:00:00Z',
    );
    const refused = {
      action: 'sign-in-failed',
      actorId: null,
      actorName: null,
      after: { username: null, method: 'single sign-on', reason: ErrorCode.SSO_EXPIRED },
    };
    expect(items).toEqual([
      expect.objectContaining({ ...refused, at: '2026-03-02T10:16:05.000Z', count: 3 }),
      expect.objectContaining({ ...refused, at: '2026-03-02T10:15:20.000Z', count: 200 }),
    ]);
  });

  it('is for administrators only, filters by actor and time, pages with a cursor, and never holds a secret', async () => {
    const clerkCookie = (await sut.signIn(clerk.username, 'clerk second phrase')).cookie;
    expect((await call('/api/audit', 'GET', undefined, { cookie: clerkCookie })).status).toBe(403);

    const clerkId = (await ok<{ id: string; username: string }[]>('/api/users')).find(
      (u) => u.username === 'clerk',
    )!.id;
    await call('/api/buildings', 'POST', { name: 'Clerk Hall' }, { cookie: clerkCookie });
    const byClerk = await ok<AuditPage>(`/api/audit?actor=${clerkId}`);
    expect(byClerk.items.length).toBeGreaterThan(0);
    expect(byClerk.items.every((e) => e.actorId === clerkId)).toBe(true);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await ok<AuditPage>(`/api/audit?from=${future}`)).items).toEqual([]);
    expect(await call('/api/audit?entityType=planet')).toMatchObject({ status: 400 });

    const seen: AuditEntry[] = [];
    let cursor: string | null = null;
    do {
      const page: AuditPage = await ok<AuditPage>(`/api/audit?limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.length).toBeGreaterThan(20);
    expect(new Set(seen.map((e) => e.id)).size).toBe(seen.length);
    const everything = JSON.stringify(seen);
    for (const secret of secrets) expect([secret, everything.includes(secret)]).toEqual([secret, false]);
    expect(everything).not.toMatch(/argon2|cm_[A-Za-z0-9_-]{43}/);
  });

  it('deletes entries older than AUDIT_RETENTION_DAYS (400 by default)', async () => {
    const table = `"${sut.namespace}_gateway".audit_entries`;
    const db = sut.gateway.app.get(DataSource);
    const [old] = (await db.query(`SELECT id FROM ${table} ORDER BY id LIMIT 1`)) as { id: string }[];
    const [recent] = (await db.query(`SELECT id FROM ${table} ORDER BY id DESC LIMIT 1`)) as { id: string }[];
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await db.query(`UPDATE ${table} SET at = $2 WHERE id = $1`, [old.id, daysAgo(401)]);
    await db.query(`UPDATE ${table} SET at = $2 WHERE id = $1`, [recent.id, daysAgo(399)]);
    expect(await sut.gateway.app.get(AuditRetention).purge()).toBe(1);
    const left = (await db.query(`SELECT id FROM ${table} WHERE id = ANY($1)`, [[old.id, recent.id]])) as {
      id: string;
    }[];
    expect(left.map((r) => r.id)).toEqual([recent.id]);
  });
});

describe('audit log of monitoring', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { everyService: true });
  });
  afterAll(() => sut?.close());

  it('records monitoring started, checked and stopped, with who did it and the state it answered', async () => {
    const cookie = await sut.adminCookie();
    for (const action of ['start', 'check', 'stop']) {
      const res = await fetch(`${sut.base}/api/monitoring/${action}`, {
        method: 'POST',
        headers: { cookie },
      });
      expect([action, res.status]).toEqual([action, 200]);
    }
    const res = await fetch(`${sut.base}/api/audit?entityType=monitoring`, { headers: { cookie } });
    const { items } = (await res.json()) as AuditPage;
    expect(items.map((e) => e.action)).toEqual(['stop', 'check', 'start']);
    expect(items[2]).toMatchObject({ actorName: 'chief', entityId: null, after: { isRunning: true } });
    expect(items[0].after).toMatchObject({ isRunning: false });
    expect(items[1].after).toMatchObject({ completed: expect.any(Boolean) });
  });
});
