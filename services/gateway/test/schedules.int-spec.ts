import { type Building, ErrorCode, type Room, type ScheduleSource } from '@cm/contracts';
import { callJson, fetch, startAuthAndGateway } from './support';

// Through the gateway: access, the multipart upload and the routes' answers. What inventory does
// with feeds and files is its own test's (inventory/test/schedules.int-spec.ts).
describe('/api/schedule-sources', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  let user: string;
  let room: Room;

  const call = <T>(cookie: string, path: string, method = 'GET', body?: unknown) =>
    callJson<T>(sut.base, cookie, path, method, body);
  const upload = (cookie: string, id: string, text: string, name = 'timetable.csv') => {
    const form = new FormData();
    form.append('file', new Blob([text], { type: 'text/csv' }), name);
    return fetch(`${sut.base}/api/schedule-sources/${id}/file`, {
      method: 'POST',
      headers: { cookie },
      body: form,
    });
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { inventory: true, inventoryEnv: { SCHEDULE_TIME_ZONE: 'UTC' } });
    admin = (await sut.signInAdmin()).cookie;
    await call(admin, '/api/users', 'POST', {
      username: 'tech',
      password: 'tech secret phrase',
      role: 'user',
      isActive: 1,
    });
    user = (await sut.signIn('tech', 'tech secret phrase')).cookie;
    const building = (await call<Building>(admin, '/api/buildings', 'POST', { name: 'Hall A' })).body;
    room = (
      await call<Room>(admin, `/api/buildings/${building.id}/rooms`, 'POST', {
        name: '101',
        type: 'Classroom',
        floor: '1',
      })
    ).body;
  });
  afterAll(() => sut?.close());

  it("takes a room's timetable file from an administrator and answers the room's classes", async () => {
    const created = await call<ScheduleSource>(admin, '/api/schedule-sources', 'POST', {
      name: 'Hall A 101',
      roomId: room.id,
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const next = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await upload(admin, id, `Location,Title,Date,Start,End\n101,ECON 101,${next},10:00,11:15\n`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, kind: 'file', fileName: 'timetable.csv', occurrences: 1 });

    const day = `from=${next}T00:00:00Z&to=${next}T23:59:00Z`;
    const classes = await call<unknown[]>(user, `/api/rooms/${room.id}/schedule?${day}`);
    expect(classes.body).toEqual([
      {
        sourceId: id,
        roomId: room.id,
        title: 'ECON 101',
        location: '101',
        start: `${next}T10:00:00.000Z`,
        end: `${next}T11:15:00.000Z`,
      },
    ]);
    expect((await call<ScheduleSource[]>(user, '/api/schedule-sources')).body).toHaveLength(1);

    const renamed = await call<ScheduleSource>(admin, `/api/schedule-sources/${id}`, 'PUT', {
      name: 'Hall A 101 (spring)',
      roomId: room.id,
    });
    expect(renamed.body).toMatchObject({
      name: 'Hall A 101 (spring)',
      placeName: 'Hall A · 101',
      occurrences: 1,
    });
    expect((await call(user, '/api/schedule-locations?unmatched=true')).body).toEqual([]);
    const mapped = await call(admin, '/api/schedule-locations', 'PUT', {
      location: 'Room One',
      roomId: room.id,
    });
    expect(mapped).toEqual({
      status: 200,
      body: { location: 'Room One', roomId: room.id, matchedBy: 'mapping', sourceIds: [], occurrences: 0 },
    });

    // Deleted, its classes go from the room's schedule and from the list before classes.
    const readiness = async () =>
      (await call<{ title: string }[]>(user, `/api/readiness?${day}`)).body.map((c) => c.title);
    expect(await readiness()).toEqual(['ECON 101']);
    const deleted = await fetch(`${sut.base}/api/schedule-sources/${id}`, {
      method: 'DELETE',
      headers: { cookie: admin },
    });
    expect(deleted.status).toBe(204);
    expect((await call(user, `/api/rooms/${room.id}/schedule?${day}`)).body).toEqual([]);
    expect(await readiness()).toEqual([]);
    expect((await call<ScheduleSource[]>(user, '/api/schedule-sources')).body).toEqual([]);
  });

  it('answers a file with a bad line 422, by line, and keeps it from people who are not administrators', async () => {
    const { id } = (
      await call<ScheduleSource>(admin, '/api/schedule-sources', 'POST', { name: 'Other', roomId: room.id })
    ).body;
    const res = await upload(
      admin,
      id,
      'Location,Title,Date,Start,End\n101,ECON 101,2026-03-02,25:00,11:15\n',
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { code: string; message: string; errors: unknown[] };
    expect(body.code).toBe(ErrorCode.SCHEDULE_FILE_INVALID);
    expect(body.message).toContain('line 2: Start "25:00" is not a time');
    expect(body.errors).toEqual([
      { path: 'line 2', message: 'Start "25:00" is not a time (10:00 or 10:00 AM)' },
    ]);

    expect((await upload(user, id, 'x')).status).toBe(403);
    expect((await call(user, '/api/schedule-sources', 'POST', { name: 'X', roomId: room.id })).status).toBe(
      403,
    );
    expect(
      (await call(user, '/api/schedule-locations', 'PUT', { location: '101', roomId: room.id })).status,
    ).toBe(403);
    const deleted = await fetch(`${sut.base}/api/schedule-sources/${id}`, {
      method: 'DELETE',
      headers: { cookie: admin },
    });
    expect(deleted.status).toBe(204);
  });

  it('refuses a schedule for both a room and a building, and a form without its file', async () => {
    const both = await call<{ message: string }>(admin, '/api/schedule-sources', 'POST', {
      name: 'Both',
      roomId: room.id,
      buildingId: room.buildingId,
    });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('either a roomId');
    const { id } = (
      await call<ScheduleSource>(admin, '/api/schedule-sources', 'POST', { name: 'Empty', roomId: room.id })
    ).body;
    const form = new FormData();
    form.append('other', 'x');
    const res = await fetch(`${sut.base}/api/schedule-sources/${id}/file`, {
      method: 'POST',
      headers: { cookie: admin },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe(ErrorCode.NO_FILE);
  });

  it("answers a building's rooms' classes to anybody signed in, 404 for a building that is not there", async () => {
    const next = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const { id } = (
      await call<ScheduleSource>(admin, '/api/schedule-sources', 'POST', {
        name: 'Rooms list',
        roomId: room.id,
      })
    ).body;
    expect(
      (await upload(admin, id, `Location,Title,Date,Start,End\n101,LAW 300,${next},08:00,09:00\n`)).status,
    ).toBe(200);
    const classes = await call<{ roomId: string; title: string }[]>(
      user,
      `/api/buildings/${room.buildingId}/classes?from=${next}T00:00:00Z&to=${next}T23:00:00Z`,
    );
    expect(classes.status).toBe(200);
    expect(classes.body.map((c) => [c.roomId, c.title])).toContainEqual([room.id, 'LAW 300']);
    const missing = await call<{ code: string }>(
      user,
      '/api/buildings/00000000-0000-4000-8000-000000000999/classes',
    );
    expect(missing).toMatchObject({ status: 404, body: { code: ErrorCode.BUILDING_NOT_FOUND } });
    const backwards = await call<{ message: string }>(
      user,
      `/api/buildings/${room.buildingId}/classes?from=${next}T10:00:00Z&to=${next}T09:00:00Z`,
    );
    expect(backwards.status).toBe(400);
    expect(backwards.body.message).toContain('to must be after from');
  });

  it("keeps the morning summary's settings an administrator's, and says what is wrong with them", async () => {
    expect((await call(admin, '/api/readiness/summary')).body).toEqual({
      time: null,
      timeZone: 'UTC',
      channelIds: [],
    });
    const set = await call(admin, '/api/readiness/summary', 'PUT', {
      time: '07:15',
      timeZone: 'America/Chicago',
      channelIds: [],
    });
    expect(set).toEqual({
      status: 200,
      body: { time: '07:15', timeZone: 'America/Chicago', channelIds: [] },
    });
    const bad = await call<{ message: string }>(admin, '/api/readiness/summary', 'PUT', {
      time: '7am',
      timeZone: 'Mars/Olympus',
      channelIds: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('Time must be a time such as 08:00');
    expect(bad.body.message).toContain('Time zone must be an IANA time zone');
    const unknown = await call<{ code: string }>(admin, '/api/readiness/summary', 'PUT', {
      time: '07:15',
      timeZone: 'UTC',
      channelIds: ['00000000-0000-4000-8000-000000000998'],
    });
    expect(unknown).toMatchObject({ status: 404, body: { code: ErrorCode.CHANNEL_NOT_FOUND } });
    expect((await call(user, '/api/readiness/summary')).status).toBe(403);
    expect(
      (await call(user, '/api/readiness/summary', 'PUT', { time: null, timeZone: 'UTC', channelIds: [] }))
        .status,
    ).toBe(403);
  });
});
