import { randomUUID } from 'node:crypto';
import {
  type Building,
  type BuildingListItem,
  type Equipment,
  ErrorCode,
  type ErrorBody,
  events,
  type Room,
  type RoomListItem,
  type UptimeReport,
  uptimeCsvColumns,
} from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually, testDatabaseUrl, testNatsUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { sessionHeaders, signIn } from './session';
import { type SharedSystem, sharedSystem } from './shared-system';

describe('inventory through the gateway', () => {
  let system: SharedSystem;
  let cookie: Record<string, string> = {};

  const api = async <T = unknown>(method: string, path: string, body?: unknown) => {
    const res = await fetch(`${system.url}${path}`, {
      method,
      headers: { ...cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  beforeAll(async () => {
    system = sharedSystem();
    cookie = sessionHeaders(await signIn(system.url, system.admin.username, system.admin.password));
  });

  it('walks a building, its rooms and their equipment through create, list, edit and delete', async () => {
    const building = await api<Building>('POST', '/api/buildings', {
      name: 'Science Hall',
      description: 'North',
    });
    expect(building).toEqual({
      status: 201,
      body: {
        id: expect.any(String),
        name: 'Science Hall',
        description: 'North',
        imageUrl: null,
        version: 1,
      },
    });
    const b = building.body.id;

    const room = await api<Room>('POST', `/api/buildings/${b}/rooms`, {
      name: '101',
      type: 'Computer Lab',
      floor: '1',
      capacity: '24',
      isAdaAccessible: 1,
      roomSize: '',
      imageUrl: '',
      wiringDiagramUrl: '',
      seatingLayoutUrl: '',
    });
    expect(room.status).toBe(201);
    expect(room.body).toMatchObject({ buildingId: b, capacity: 24, roomSize: null });
    const r = room.body.id;

    const equipment = await api<Equipment>('POST', `/api/rooms/${r}/equipment`, {
      roomId: r,
      name: 'Projector',
      model: 'PT-VMZ60',
      serialNumber: '',
      ipAddress: '127.20.0.70-73',
      status: 'active',
      notes: '',
      imageUrl: '',
    });
    expect(equipment.status).toBe(201);
    const e = equipment.body.id;

    const buildings = await api<BuildingListItem[]>('GET', '/api/buildings');
    expect(buildings.body.find((x) => x.id === b)).toMatchObject({ roomCount: 1 });
    const rooms = await api<RoomListItem[]>('GET', `/api/buildings/${b}/rooms`);
    expect(rooms.body).toEqual([expect.objectContaining({ id: r, equipmentCount: 1 })]);
    expect((await api('GET', `/api/buildings/${b}`)).body).toEqual(building.body);
    expect((await api('GET', `/api/rooms/${r}`)).body).toEqual(room.body);

    // A detail-page upload sends one attachment URL; nothing else changes.
    const form = new FormData();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    form.append('file', new Blob([png], { type: 'image/png' }), 'wiring.png');
    const uploaded = await fetch(`${system.url}/api/upload`, { method: 'POST', headers: cookie, body: form });
    const { url } = (await uploaded.json()) as { url: string };
    const wired = await api<Room>('PUT', `/api/rooms/${r}`, { wiringDiagramUrl: url });
    expect(wired).toEqual({ status: 200, body: { ...room.body, wiringDiagramUrl: url, version: 2 } });
    expect((await api<ErrorBody>('PUT', `/api/rooms/${r}`, { imageUrl: '/api/logout' })).status).toBe(400);

    const edited = await api<Equipment>('PUT', `/api/equipment/${e}`, {
      roomId: r,
      name: 'Projector',
      model: 'PT-VMZ60',
      serialNumber: 'SN1',
      ipAddress: '127.20.0.70',
      status: 'maintenance',
      notes: 'lamp',
    });
    expect(edited.body).toMatchObject({
      serialNumber: 'SN1',
      ipAddress: '127.20.0.70',
      status: 'maintenance',
    });
    expect((await api('GET', `/api/rooms/${r}/equipment`)).body).toEqual([edited.body]);

    const renamed = await api<Building>('PUT', `/api/buildings/${b}`, {
      name: 'Physics Hall',
      description: 'North',
    });
    expect(renamed.body.name).toBe('Physics Hall');

    expect(await api('DELETE', `/api/equipment/${e}`)).toEqual({ status: 204, body: undefined });
    expect(await api('DELETE', `/api/rooms/${r}`)).toEqual({ status: 204, body: undefined });
    expect(await api('DELETE', `/api/buildings/${b}`)).toEqual({ status: 204, body: undefined });
    expect((await api<ErrorBody>('GET', `/api/buildings/${b}`)).status).toBe(404);
  });

  it('deleting a building removes its rooms and their equipment', async () => {
    const b = (await api<Building>('POST', '/api/buildings', { name: 'Annex' })).body.id;
    const r = (
      await api<Room>('POST', `/api/buildings/${b}/rooms`, { name: '1', type: 'Office', floor: 'LL' })
    ).body.id;
    await api('POST', `/api/rooms/${r}/equipment`, { name: 'Phone' });
    expect((await api('DELETE', `/api/buildings/${b}`)).status).toBe(204);
    expect((await api<ErrorBody>('GET', `/api/rooms/${r}`)).body.code).toBe(ErrorCode.ROOM_NOT_FOUND);
    expect((await api<ErrorBody>('GET', `/api/rooms/${r}/equipment`)).status).toBe(404);
  });

  it('answers bad input with 400 and field messages, unknown ids with 404, never a 500', async () => {
    const noName = await api<ErrorBody>('POST', '/api/buildings', { description: 'x' });
    expect(noName).toEqual({
      status: 400,
      body: {
        code: ErrorCode.VALIDATION_FAILED,
        message: 'Building name is required',
        errors: [{ path: 'name', message: 'Building name is required' }],
      },
    });
    const b = (await api<Building>('POST', '/api/buildings', { name: 'Checks' })).body.id;
    const badRoom = await api<ErrorBody>('POST', `/api/buildings/${b}/rooms`, {
      name: '',
      type: 'Gym',
      floor: '1',
      capacity: -2,
    });
    expect(badRoom.status).toBe(400);
    expect(badRoom.body.errors?.map((x) => x.path).sort()).toEqual(['capacity', 'name', 'type']);

    const r = (
      await api<Room>('POST', `/api/buildings/${b}/rooms`, { name: '1', type: 'Office', floor: '1' })
    ).body.id;
    const badAddress = await api<ErrorBody>('POST', `/api/rooms/${r}/equipment`, {
      name: 'Mics',
      ipAddress: '10.0.0.80-73',
    });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.message).toContain('must not be below its start (80)');
    // The shared system may monitor loopback only (see sharedSystemEnv).
    for (const [ipAddress, message] of [
      ['224.0.0.5', '224.0.0.5 is a multicast address (224.0.0.0/4)'],
      ['127.0.0.0-9', '127.0.0.0 is the network address of 127.0.0.0/24'],
      ['8.8.8.8', '8.8.8.8 is outside the networks this system may monitor (127.0.0.0/8)'],
      ['10.0.0.5', '10.0.0.5 is outside the networks this system may monitor (127.0.0.0/8)'],
    ]) {
      const refused = await api<ErrorBody>('POST', `/api/rooms/${r}/equipment`, { name: 'Mics', ipAddress });
      expect([ipAddress, refused.status, refused.body.code]).toEqual([
        ipAddress,
        400,
        ErrorCode.VALIDATION_FAILED,
      ]);
      expect(refused.body.message).toContain(message);
    }
    expect((await api<Equipment[]>('GET', `/api/rooms/${r}/equipment`)).body).toEqual([]);

    expect((await api<ErrorBody>('GET', '/api/rooms/not-an-id')).status).toBe(400);
    const unknown = randomUUID();
    for (const [method, path, code] of [
      ['GET', `/api/buildings/${unknown}`, ErrorCode.BUILDING_NOT_FOUND],
      ['POST', `/api/buildings/${unknown}/rooms`, ErrorCode.BUILDING_NOT_FOUND],
      ['PUT', `/api/rooms/${unknown}`, ErrorCode.ROOM_NOT_FOUND],
      ['DELETE', `/api/equipment/${unknown}`, ErrorCode.EQUIPMENT_NOT_FOUND],
    ] as const) {
      const body = method === 'POST' ? { name: '1', type: 'Office', floor: '1' } : { name: 'x' };
      const res = await api<ErrorBody>(
        method,
        path,
        method === 'GET' || method === 'DELETE' ? undefined : body,
      );
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 404, code]);
    }
  });

  it('answers 401 to anyone not signed in', async () => {
    for (const path of ['/api/buildings', '/api/reports/uptime']) {
      const res = await fetch(`${system.url}${path}`);
      expect([path, res.status]).toEqual([path, 401]);
    }
  });

  it("shows the monitor's status events on the equipment and in the uptime report", async () => {
    const b = (await api<Building>('POST', '/api/buildings', { name: 'Monitored' })).body.id;
    const r = (
      await api<Room>('POST', `/api/buildings/${b}/rooms`, { name: '1', type: 'Office', floor: '1' })
    ).body.id;
    const e = (
      await api<Equipment>('POST', `/api/rooms/${r}/equipment`, { name: 'Switch', ipAddress: '127.0.0.1' })
    ).body.id;

    const monitor = await JetStreamConnection.connect({
      namespace: system.namespace,
      servers: testNatsUrl,
      name: 'e2e-monitor',
      timeoutMs: 5000,
    });
    try {
      const eventId = randomUUID();
      await monitor.publish(
        events.statusChecked,
        {
          eventId,
          equipmentId: e,
          sweepId: randomUUID(),
          status: 'inactive',
          checkedAt: new Date().toISOString(),
          rttMs: null,
          results: [{ address: '127.0.0.1', alive: false, rttMs: null }],
        },
        { msgId: eventId },
      );
    } finally {
      await monitor.close();
    }
    await eventually(
      async () =>
        expect((await api<Equipment[]>('GET', `/api/rooms/${r}/equipment`)).body[0].status).toBe('inactive'),
      10_000,
      100,
    );

    const report = await api<UptimeReport>('GET', '/api/reports/uptime');
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ windowHours: 720, offline: expect.any(Number) });
    expect(report.body.offline).toBeGreaterThanOrEqual(1);
    const csv = await uptimeCsvRows();
    expect(csv.find((line) => line[0] === 'Monitored' && line[2] === 'Switch')).toEqual([
      'Monitored',
      '1',
      'Switch',
      '',
      '127.0.0.1',
      'inactive',
      expect.stringMatching(/^\d+\.\d$/),
      expect.stringMatching(/^\d+\.\d$/),
      expect.stringMatching(/^\d+\.\d$/),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    ]);
  });

  it('assembles the uptime report of a campus larger than one inventory page', async () => {
    const b = (await api<Building>('POST', '/api/buildings', { name: 'Large' })).body.id;
    const r = (
      await api<Room>('POST', `/api/buildings/${b}/rooms`, { name: 'Store', type: 'Storage', floor: 'B1' })
    ).body.id;
    const db = new Client({ connectionString: testDatabaseUrl });
    await db.connect();
    try {
      await db.query(
        `INSERT INTO "${system.namespace}_inventory".equipment (room_id, name)
         SELECT $1, 'Spare ' || g FROM generate_series(1, 1200) g`,
        [r],
      );
    } finally {
      await db.end();
    }
    const report = await api<UptimeReport>('GET', '/api/reports/uptime');
    expect(report.status).toBe(200);
    // The screen's answer stays small: the counts and the first rows.
    expect(report.body.equipment).toHaveLength(100);
    expect(report.body.truncated).toBe(true);
    // The whole campus is the CSV, streamed page by page.
    const csv = await uptimeCsvRows();
    expect(csv.filter((line) => line[0] === 'Large' && line[1] === 'Store')).toHaveLength(1200);
    expect(csv).toHaveLength(report.body.totalEquipment);
  });

  /** The streamed CSV's rows (after its header), split into cells; it has no quoted commas here. */
  async function uptimeCsvRows(): Promise<string[][]> {
    const res = await fetch(`${system.url}/api/reports/uptime.csv`, { headers: cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="equipment-uptime-report-\d{4}-\d\d-\d\d\.csv"$/,
    );
    const [header, ...lines] = (await res.text()).split('\r\n');
    expect(header).toBe(uptimeCsvColumns.join(','));
    expect(lines.pop()).toBe('');
    return lines.map((line) => line.split(','));
  }
});
