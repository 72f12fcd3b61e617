import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import {
  type Building,
  type Equipment,
  ErrorCode,
  type ErrorBody,
  type Room,
  type User,
} from '@cm/contracts';
import { callJson, fetch, startAuthAndGateway } from './support';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small picture'),
]);

const notOurs = (label: string) =>
  `${label} must be a picture uploaded to Classroom Monitor (a path under /objects/uploads/). Upload the image instead of typing an address.`;
const notRegistered = (label: string) =>
  `${label} names no picture uploaded to Classroom Monitor. Upload the image again.`;

/**
 * Picture fields are shown as images by every browser that lists the card, with its cookie: a
 * plain user must not be able to store anything there but a picture the product itself stored.
 */
describe('picture fields', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;
  let building: Building;
  let room: Room;
  let equipment: Equipment;

  const call = <T = unknown>(path: string, method = 'GET', body?: unknown) =>
    callJson<T>(sut.base, cookie, path, method, body);

  /** A picture uploaded as the building form does (streamed to POST /api/upload). */
  const uploadStreamed = async () => {
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'hall.png');
    const res = await fetch(`${sut.base}/api/upload`, { method: 'POST', headers: { cookie }, body: form });
    expect(res.status).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };

  /** A picture uploaded as the room dialogs do (presigned PUT, then registered). */
  const uploadPresigned = async () => {
    const { body } = await call<{ uploadURL: string }>('/api/objects/upload', 'POST');
    expect((await globalThis.fetch(body.uploadURL, { method: 'PUT', body: png })).status).toBe(200);
    const registered = await call<{ objectPath: string }>('/api/room-images', 'PUT', {
      roomImageURL: body.uploadURL,
    });
    expect(registered.status).toBe(200);
    return { uploadURL: body.uploadURL, objectPath: registered.body.objectPath };
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { everyService: true });
    const admin = await sut.adminCookie();
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'plain', password: 'plain secret' }),
    });
    expect(((await created.json()) as User).role).toBe('user');
    cookie = (await sut.signIn('plain', 'plain secret')).cookie;
    building = (await call<Building>('/api/buildings', 'POST', { name: 'Science Hall' })).body;
    room = (
      await call<Room>(`/api/buildings/${building.id}/rooms`, 'POST', {
        name: '101',
        type: 'Office',
        floor: '1',
      })
    ).body;
    equipment = (await call<Equipment>(`/api/rooms/${room.id}/equipment`, 'POST', { name: 'Projector' }))
      .body;
  });
  afterAll(() => sut?.close());

  /** Every way to write a picture field, each with the field and the name its message uses. */
  const writes = () =>
    [
      [
        'POST /api/buildings',
        (v: string) => call('/api/buildings', 'POST', { name: 'Planted', imageUrl: v }),
        'imageUrl',
        'Image URL',
      ],
      [
        'PUT /api/buildings/{id}',
        (v: string) => call(`/api/buildings/${building.id}`, 'PUT', { name: building.name, imageUrl: v }),
        'imageUrl',
        'Image URL',
      ],
      [
        'POST /api/buildings/{id}/rooms',
        (v: string) =>
          call(`/api/buildings/${building.id}/rooms`, 'POST', {
            name: '102',
            type: 'Office',
            floor: '1',
            seatingLayoutUrl: v,
          }),
        'seatingLayoutUrl',
        'Seating layout URL',
      ],
      [
        'PUT /api/rooms/{id} (photo)',
        (v: string) => call(`/api/rooms/${room.id}`, 'PUT', { imageUrl: v }),
        'imageUrl',
        'Image URL',
      ],
      [
        'PUT /api/rooms/{id} (wiring)',
        (v: string) => call(`/api/rooms/${room.id}`, 'PUT', { wiringDiagramUrl: v }),
        'wiringDiagramUrl',
        'Wiring diagram URL',
      ],
      [
        'POST /api/rooms/{id}/equipment',
        (v: string) => call(`/api/rooms/${room.id}/equipment`, 'POST', { name: 'Screen', imageUrl: v }),
        'imageUrl',
        'Image URL',
      ],
      [
        'PUT /api/equipment/{id}',
        (v: string) => call(`/api/equipment/${equipment.id}`, 'PUT', { name: 'Projector', imageUrl: v }),
        'imageUrl',
        'Image URL',
      ],
    ] as const;

  it.each(['/api/logout', 'https://evil.example/x.png', '/api/buildings', '/objects/uploads/photo.jpg'])(
    'refuses %s in every picture field of a plain user: 400 naming the field',
    async (value) => {
      for (const [route, write, field, label] of writes()) {
        const { status, body } = await write(value);
        expect([route, status]).toEqual([route, 400]);
        expect(body as ErrorBody).toEqual({
          code: ErrorCode.VALIDATION_FAILED,
          message: notOurs(label),
          errors: [{ path: expect.stringMatching(new RegExp(`(^|\\.)${field}$`)), message: notOurs(label) }],
        });
      }
    },
  );

  it('refuses an object path of no registered object, and of an upload not yet registered', async () => {
    const { body } = await call<{ uploadURL: string }>('/api/objects/upload', 'POST');
    const unregistered = `/objects/${new URL(body.uploadURL).pathname.split('/').slice(2).join('/')}`;
    for (const value of [`/objects/uploads/${randomUUID()}`, unregistered]) {
      for (const [route, write, field, label] of writes()) {
        const { status, body: error } = await write(value);
        expect([route, status]).toEqual([route, 400]);
        expect(error as ErrorBody).toEqual({
          code: ErrorCode.VALIDATION_FAILED,
          message: notRegistered(label),
          errors: [{ path: field, message: notRegistered(label) }],
        });
      }
    }
  });

  it('names each refused field of a room edit, and stores none of them', async () => {
    const { objectPath } = await uploadPresigned();
    const res = await call<ErrorBody>(`/api/rooms/${room.id}`, 'PUT', {
      imageUrl: objectPath,
      wiringDiagramUrl: `/objects/uploads/${randomUUID()}`,
      seatingLayoutUrl: `/objects/uploads/${randomUUID()}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.errors?.map((e) => e.path)).toEqual(['wiringDiagramUrl', 'seatingLayoutUrl']);
    expect((await call<Room>(`/api/rooms/${room.id}`)).body).toMatchObject({
      imageUrl: null,
      wiringDiagramUrl: null,
      seatingLayoutUrl: null,
    });
  });

  it('stores pictures the product uploaded, streamed or presigned, and clears them when sent empty', async () => {
    const photo = await uploadStreamed();
    expect(photo).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
    expect(
      await call(`/api/buildings/${building.id}`, 'PUT', { name: building.name, imageUrl: photo }),
    ).toMatchObject({
      status: 200,
      body: { imageUrl: photo },
    });
    const [wiring, seating] = [await uploadPresigned(), await uploadPresigned()];
    expect(
      await call(`/api/rooms/${room.id}`, 'PUT', {
        wiringDiagramUrl: wiring.objectPath,
        seatingLayoutUrl: seating.objectPath,
      }),
    ).toMatchObject({
      status: 200,
      body: { wiringDiagramUrl: wiring.objectPath, seatingLayoutUrl: seating.objectPath },
    });
    expect(
      await call(`/api/rooms/${room.id}/equipment`, 'POST', { name: 'Camera', imageUrl: photo }),
    ).toMatchObject({ status: 201, body: { imageUrl: photo } });

    // The path of the upload itself (not its registered copy) is refused: its URL can still replace the bytes.
    const uploadPath = `/objects/${new URL(wiring.uploadURL).pathname.split('/').slice(2).join('/')}`;
    expect((await call(`/api/rooms/${room.id}`, 'PUT', { imageUrl: uploadPath })).status).toBe(400);

    expect(
      await call(`/api/rooms/${room.id}`, 'PUT', { wiringDiagramUrl: '', seatingLayoutUrl: null }),
    ).toMatchObject({
      status: 200,
      body: { wiringDiagramUrl: null, seatingLayoutUrl: null },
    });
    const listed = (await call<Building[]>('/api/buildings')).body;
    expect(listed.find((b) => b.id === building.id)?.imageUrl).toBe(photo);
  });
});

/** A picture is served with the length media registered: never more bytes than it states. */
describe('serving pictures (GET /objects/…)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let s3: S3Client;
  let cookie: string;

  const uploadStreamed = async () => {
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'hall.png');
    const res = await fetch(`${sut.base}/api/upload`, { method: 'POST', headers: { cookie }, body: form });
    expect(res.status).toBe(200);
    return ((await res.json()) as { url: string }).url;
  };
  /** Writes an object straight into the store, as someone with the store's keys could. */
  const replaceInStore = (objectPath: string, body: Buffer) =>
    s3.send(
      new PutObjectCommand({
        Bucket: sut.store.bucket,
        Key: objectPath.replace('/objects/', ''),
        Body: body,
        ContentType: 'image/png',
      }),
    );

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { media: true });
    s3 = new S3Client({
      endpoint: sut.store.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    cookie = await sut.adminCookie();
  });
  afterAll(async () => {
    s3?.destroy();
    await sut?.close();
  });

  it('streams a picture with exactly its registered length', async () => {
    const res = await fetch(`${sut.base}${await uploadStreamed()}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
  });

  it('refuses a picture whose bytes were changed in the store behind the app, longer or of the same size', async () => {
    const refusal = {
      code: ErrorCode.CONFLICT,
      message:
        'This file was changed in the file store after it was uploaded, so it is not shown. Upload the picture again.',
    };
    // What follows the registered length would reach the browser as a response of its own.
    const smuggled = Buffer.concat([
      png,
      Buffer.from(
        'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 25\r\n\r\n<script>alert(1)</script>',
      ),
    ]);
    const tampered = Buffer.from(png);
    tampered[tampered.length - 1] ^= 0xff;
    for (const body of [smuggled, tampered]) {
      const objectPath = await uploadStreamed();
      await replaceInStore(objectPath, body);
      const res = await fetch(`${sut.base}${objectPath}`, { headers: { cookie } });
      expect(res.status).toBe(409);
      expect(res.headers.get('cache-control') ?? '').not.toContain('immutable');
      expect(await res.json()).toEqual(refusal);
    }
  });
});
