import { type Building, type Room } from '@cm/contracts';
import { ApiError, NetworkError } from '../api';
import { type OutboxEntry } from './outbox';
import { callEntry, outcomeOf, sendEntry } from './send';

const answered = (status: number, body: unknown) => new ApiError(status, JSON.stringify(body), '');

describe('how a queued change fared', () => {
  it('tries again later when nothing answered, the server is busy or failing', () => {
    expect(outcomeOf(new NetworkError('offline'))).toEqual({ kind: 'unreachable' });
    expect(outcomeOf(new NetworkError('timeout'))).toEqual({ kind: 'unreachable' });
    expect(outcomeOf(answered(503, { code: 'COMMON.SERVICE_UNAVAILABLE', message: 'Busy' }))).toEqual({
      kind: 'unreachable',
    });
    expect(outcomeOf(answered(429, { code: 'AUTH.TOO_MANY_ATTEMPTS', message: 'Slow down' }))).toEqual({
      kind: 'unreachable',
    });
  });

  it('waits for the person to sign in again after a 401', () => {
    expect(outcomeOf(answered(401, { code: 'AUTH.UNAUTHENTICATED', message: 'Sign in' }))).toEqual({
      kind: 'signed-out',
    });
  });

  it('reads a 412 as a conflict with the record as the server has it', () => {
    const current = { id: 'b1', name: 'Theirs', version: 2 };
    expect(
      outcomeOf(answered(412, { code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current })),
    ).toEqual({ kind: 'conflict', reason: 'Changed by someone else', current });
  });

  it('reads any other 4xx as a refusal, in the server’s words', () => {
    expect(
      outcomeOf(
        answered(400, { code: 'COMMON.VALIDATION_FAILED', message: '10.0.0.5 is outside the networks' }),
      ),
    ).toEqual({ kind: 'refused', reason: '10.0.0.5 is outside the networks' });
    expect(outcomeOf(answered(404, { code: 'INVENTORY.ROOM_NOT_FOUND', message: 'No room' }))).toEqual({
      kind: 'refused',
      reason: 'No room',
    });
  });
});

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };

/** Stands in for the network: each call recorded, answered in turn by `answers`. */
function fakeNetwork(...answers: Response[]): Call[] {
  const calls: Call[] = [];
  global.fetch = (async (url: string, init: RequestInit = {}) => {
    const body =
      init.body instanceof FormData ? init.body.get('file') : JSON.parse(String(init.body ?? 'null'));
    calls.push({ url, method: init.method ?? 'GET', headers: { ...(init.headers as object) }, body });
    return answers.shift()!;
  }) as typeof fetch;
  return calls;
}
const realFetch = global.fetch;
afterEach(() => {
  global.fetch = realFetch;
});

const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const id = '00000000-0000-4000-8000-000000000001';
const room: Room = {
  id,
  buildingId: '00000000-0000-4000-8000-000000000002',
  name: 'B-01',
  type: 'Classroom',
  floor: 'B1',
  capacity: 0,
  roomSize: null,
  isAdaAccessible: 0,
  imageUrl: '/objects/uploads/room.png',
  wiringDiagramUrl: null,
  seatingLayoutUrl: null,
  version: 4,
};
const building: Building = {
  id,
  name: 'North',
  description: 'Old',
  imageUrl: '/objects/uploads/north.png',
  version: 3,
};
const kept = { blob: new Blob(['png'], { type: 'image/png' }), name: 'photo.png', type: 'image/png' };
const sent = (over: Partial<OutboxEntry>) =>
  ({ key: 'k1', params: { id }, body: {}, ...over }) as Pick<
    OutboxEntry,
    'key' | 'route' | 'params' | 'body' | 'ifVersion' | 'file'
  >;
/** An entry as the outbox keeps it, waiting. */
const waitingEntry = (over: Partial<OutboxEntry>, label: string): OutboxEntry => ({
  ...(sent(over) as OutboxEntry),
  seq: 1,
  label,
  queuedAt: 1,
  state: 'waiting',
});

/** A removal of a room's picture, kept on the phone on version 4. */
const removal = (field: 'imageUrl' | 'wiringDiagramUrl') =>
  waitingEntry(
    { route: 'removeRoomPicture', params: { id, field }, body: { [field]: null }, ifVersion: 4 },
    `Remove ${field} of B-01`,
  );

describe('a picture kept on the phone, when sent', () => {
  it("sets a room's picture on the version the person saw, each call under the entry's key", async () => {
    const calls = fakeNetwork(reply({ url: '/objects/uploads/room.png' }), reply(room));
    const result = await callEntry(
      sent({ route: 'uploadRoomPicture', params: { id, field: 'imageUrl' }, ifVersion: 3, file: kept }),
    );
    expect(result).toMatchObject({ version: 4 });
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', '/api/upload'],
      ['PUT', `/api/rooms/${id}`],
    ]);
    expect(calls[0].headers['Idempotency-Key']).toBe('k1');
    expect((calls[0].body as File).name).toBe('photo.png');
    expect(calls[1].headers).toMatchObject({ 'Idempotency-Key': 'k1', 'If-Match': '"3"' });
    expect(calls[1].body).toEqual({ imageUrl: '/objects/uploads/room.png' });
  });

  it('answers a room changed meanwhile as a conflict with the room as it is now', async () => {
    const current = { ...room, name: 'B-01 Plant', imageUrl: null };
    fakeNetwork(
      reply({ url: '/objects/uploads/room.png' }),
      reply({ code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current }, 412),
    );
    const outcome = await sendEntry(
      waitingEntry(
        { route: 'uploadRoomPicture', params: { id, field: 'imageUrl' }, ifVersion: 3, file: kept },
        'Upload room photo of B-01',
      ),
    );
    expect(outcome).toEqual({ kind: 'conflict', reason: 'Changed by someone else', current });
  });

  it("removes a room's picture kept on the phone: only that field, on the version the person saw, under the entry's key", async () => {
    const calls = fakeNetwork(reply({ ...room, wiringDiagramUrl: null, version: 5 }));
    const outcome = await sendEntry(removal('wiringDiagramUrl'));
    expect(outcome).toEqual({ kind: 'sent', version: 5 });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/api/rooms/${id}`, { wiringDiagramUrl: null }],
    ]);
    expect(calls[0].headers).toMatchObject({ 'Idempotency-Key': 'k1', 'If-Match': '"4"' });
  });

  it('answers a removal from a room changed meanwhile as a conflict with the room as it is now', async () => {
    const current = { ...room, name: 'B-01 Plant', version: 5 };
    fakeNetwork(reply({ code: 'COMMON.STALE_VERSION', message: 'Changed by someone else', current }, 412));
    const outcome = await sendEntry(removal('imageUrl'));
    expect(outcome).toEqual({ kind: 'conflict', reason: 'Changed by someone else', current });
  });

  it('sets a picture stored already (uploaded online) without sending a file again', async () => {
    const url = '/objects/uploads/wiring.png';
    const calls = fakeNetwork(reply({ ...room, wiringDiagramUrl: url, version: 5 }));
    await callEntry(
      sent({
        route: 'uploadRoomPicture',
        params: { id, field: 'wiringDiagramUrl' },
        body: { wiringDiagramUrl: url },
        ifVersion: 4,
      }),
    );
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', `/api/rooms/${id}`, { wiringDiagramUrl: url }],
    ]);
    expect(calls[0].headers).toMatchObject({ 'Idempotency-Key': 'k1', 'If-Match': '"4"' });
  });

  it("uploads a building's photo, then saves the building with its url on the version the person saw", async () => {
    const calls = fakeNetwork(reply({ url: '/objects/uploads/north.png' }), reply(building));
    await callEntry(
      sent({
        route: 'updateBuilding',
        body: { name: 'North', description: 'Old' },
        ifVersion: 2,
        file: kept,
      }),
    );
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['POST', '/api/upload'],
      ['PUT', `/api/buildings/${id}`],
    ]);
    expect(calls[1].headers).toMatchObject({ 'Idempotency-Key': 'k1', 'If-Match': '"2"' });
    expect(calls[1].body).toEqual({
      name: 'North',
      description: 'Old',
      imageUrl: '/objects/uploads/north.png',
    });
  });

  it("adds a building with its photo: the photo first, then the building with its url, both under the entry's key", async () => {
    const calls = fakeNetwork(
      reply({ url: '/objects/uploads/annex.png' }),
      reply({ ...building, name: 'Annex', version: 1 }, 201),
    );
    const outcome = await sendEntry(
      waitingEntry(
        { route: 'createBuilding', params: {}, body: { name: 'Annex', description: '' }, file: kept },
        'Add building Annex with a new photo',
      ),
    );
    expect(outcome).toEqual({ kind: 'sent', version: 1 });
    expect(calls.map((c) => [c.method, c.url, c.headers['Idempotency-Key']])).toEqual([
      ['POST', '/api/upload', 'k1'],
      ['POST', '/api/buildings', 'k1'],
    ]);
    expect((calls[0].body as File).name).toBe('photo.png');
    expect(calls[1].body).toEqual({ name: 'Annex', description: '', imageUrl: '/objects/uploads/annex.png' });
  });

  it("refuses a new building whose photo the server refuses, in the server's words, and adds nothing", async () => {
    const calls = fakeNetwork(
      reply({ code: 'MEDIA.NOT_AN_IMAGE', message: 'The file is not an image.' }, 400),
    );
    const outcome = await sendEntry(
      waitingEntry(
        { route: 'createBuilding', params: {}, body: { name: 'Annex', description: '' }, file: kept },
        'Add building Annex with a new photo',
      ),
    );
    expect(outcome).toEqual({ kind: 'refused', reason: 'The file is not an image.' });
    expect(calls.map((c) => c.url)).toEqual(['/api/upload']);
  });

  it('sends a building without a kept photo as it is', async () => {
    const calls = fakeNetwork(reply(building, 201));
    await callEntry(
      sent({ route: 'createBuilding', params: {}, body: { name: 'North', description: 'Old' } }),
    );
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/buildings', { name: 'North', description: 'Old' }],
    ]);
  });
});
