import { randomUUID } from 'node:crypto';
import { type Building, type Equipment, ErrorCode, type Room, type StaleWriteBody } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

describe('ETag and If-Match on buildings, rooms and equipment', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { everyService: true });
    cookie = await sut.adminCookie();
  });
  afterAll(() => sut?.close());

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const newBuilding = async () =>
    (await (await call('POST', '/api/buildings', { name: `Versioned ${randomUUID()}` })).json()) as Building;

  it('answers the version as the ETag of a read and of an edit', async () => {
    const b = await newBuilding();
    const read = await call('GET', `/api/buildings/${b.id}`);
    expect(read.headers.get('etag')).toBe('"1"');
    const edit = await call('PUT', `/api/buildings/${b.id}`, { name: 'Renamed' }, { 'if-match': '"1"' });
    expect(edit.status).toBe(200);
    expect(edit.headers.get('etag')).toBe('"2"');
    expect(await edit.json()).toMatchObject({ name: 'Renamed', version: 2 });
  });

  it('refuses a stale edit with 412, its reason and the building as it is now; nothing changes', async () => {
    const b = await newBuilding();
    await call('PUT', `/api/buildings/${b.id}`, { name: 'Theirs', description: 'Changed elsewhere' });
    const mine = await call('PUT', `/api/buildings/${b.id}`, { name: 'Mine' }, { 'if-match': '"1"' });
    expect(mine.status).toBe(412);
    const body = (await mine.json()) as StaleWriteBody;
    expect(body).toEqual({
      code: ErrorCode.STALE_VERSION,
      message: expect.stringContaining('changed by someone else'),
      current: { ...b, name: 'Theirs', description: 'Changed elsewhere', version: 2 },
    });
    expect(await (await call('GET', `/api/buildings/${b.id}`)).json()).toMatchObject({ name: 'Theirs' });
  });

  it('edits as before without If-Match, or with If-Match: *', async () => {
    const b = await newBuilding();
    await call('PUT', `/api/buildings/${b.id}`, { name: 'One' });
    expect((await call('PUT', `/api/buildings/${b.id}`, { name: 'Two' })).status).toBe(200);
    expect((await call('PUT', `/api/buildings/${b.id}`, { name: 'Three' }, { 'if-match': '*' })).status).toBe(
      200,
    );
  });

  it('refuses an If-Match that is not one of its ETags with 400', async () => {
    const b = await newBuilding();
    const res = await call('PUT', `/api/buildings/${b.id}`, { name: 'X' }, { 'if-match': 'yesterday' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringContaining('If-Match'),
    });
  });

  it('answers a retried edit (same Idempotency-Key) with its first answer rather than a 412', async () => {
    const b = await newBuilding();
    const key = randomUUID();
    const headers = { 'if-match': '"1"', 'idempotency-key': key };
    const first = await call('PUT', `/api/buildings/${b.id}`, { name: 'Once' }, headers);
    const retry = await call('PUT', `/api/buildings/${b.id}`, { name: 'Once' }, headers);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('etag')).toBe('"2"');
    expect(await (await call('GET', `/api/buildings/${b.id}`)).json()).toMatchObject({ version: 2 });
  });

  it('versions rooms and equipment alike', async () => {
    const b = await newBuilding();
    const room = (await (
      await call('POST', `/api/buildings/${b.id}/rooms`, { name: '101', type: 'Classroom', floor: '1' })
    ).json()) as Room;
    expect((await call('GET', `/api/rooms/${room.id}`)).headers.get('etag')).toBe('"1"');
    await call('PUT', `/api/rooms/${room.id}`, { name: '102' }, { 'if-match': '"1"' });
    const staleRoom = await call('PUT', `/api/rooms/${room.id}`, { name: '103' }, { 'if-match': '"1"' });
    expect(staleRoom.status).toBe(412);
    expect(((await staleRoom.json()) as StaleWriteBody).current).toMatchObject({ name: '102', version: 2 });

    const e = (await (
      await call('POST', `/api/rooms/${room.id}/equipment`, { name: 'Projector' })
    ).json()) as Equipment;
    const read = await call('GET', `/api/equipment/${e.id}`);
    expect(read.headers.get('etag')).toBe('"1"');
    expect(await read.json()).toMatchObject({ id: e.id, name: 'Projector', version: 1 });
    const edit = { roomId: room.id, name: 'Projector', status: 'maintenance' };
    await call('PUT', `/api/equipment/${e.id}`, { ...edit, notes: 'Lamp out' }, { 'if-match': '"1"' });
    const staleEquipment = await call(
      'PUT',
      `/api/equipment/${e.id}`,
      { ...edit, status: 'inactive' },
      { 'if-match': '"1"' },
    );
    expect(staleEquipment.status).toBe(412);
    expect(((await staleEquipment.json()) as StaleWriteBody).current).toMatchObject({
      status: 'maintenance',
      notes: 'Lamp out',
      version: 2,
    });
  });

  it('deletes on the version the person saw; a delete of a record changed since is a 412 with it', async () => {
    const b = await newBuilding();
    await call('PUT', `/api/buildings/${b.id}`, { name: 'Changed elsewhere' });
    const stale = await call('DELETE', `/api/buildings/${b.id}`, undefined, { 'if-match': '"1"' });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as StaleWriteBody).current).toMatchObject({
      id: b.id,
      name: 'Changed elsewhere',
      version: 2,
    });
    expect((await call('GET', `/api/buildings/${b.id}`)).status).toBe(200);

    expect((await call('DELETE', `/api/buildings/${b.id}`, undefined, { 'if-match': '"2"' })).status).toBe(
      204,
    );
    // Gone already: a 404, whatever version is named (the client counts it as done).
    const again = await call('DELETE', `/api/buildings/${b.id}`, undefined, { 'if-match': '"2"' });
    expect(again.status).toBe(404);
  });

  it('deletes rooms and equipment on their versions alike; without If-Match as before', async () => {
    const b = await newBuilding();
    const newRoom = async () =>
      (await (
        await call('POST', `/api/buildings/${b.id}/rooms`, { name: '101', type: 'Classroom', floor: '1' })
      ).json()) as Room;
    const room = await newRoom();
    const e = (await (
      await call('POST', `/api/rooms/${room.id}/equipment`, { name: 'Projector' })
    ).json()) as Equipment;
    await call('PUT', `/api/equipment/${e.id}`, { roomId: room.id, name: 'Projector', notes: 'Lamp out' });
    const staleEquipment = await call('DELETE', `/api/equipment/${e.id}`, undefined, { 'if-match': '"1"' });
    expect(staleEquipment.status).toBe(412);
    expect(((await staleEquipment.json()) as StaleWriteBody).current).toMatchObject({ notes: 'Lamp out' });
    expect((await call('DELETE', `/api/equipment/${e.id}`, undefined, { 'if-match': '"2"' })).status).toBe(
      204,
    );

    await call('PUT', `/api/rooms/${room.id}`, { name: '102' });
    const staleRoom = await call('DELETE', `/api/rooms/${room.id}`, undefined, { 'if-match': '"1"' });
    expect(staleRoom.status).toBe(412);
    expect(((await staleRoom.json()) as StaleWriteBody).current).toMatchObject({ name: '102', version: 2 });
    expect((await call('DELETE', `/api/rooms/${room.id}`)).status).toBe(204);
    expect((await call('GET', `/api/rooms/${room.id}`)).status).toBe(404);

    const bad = await call('DELETE', `/api/rooms/${(await newRoom()).id}`, undefined, { 'if-match': 'old' });
    expect(bad.status).toBe(400);
  });
});
