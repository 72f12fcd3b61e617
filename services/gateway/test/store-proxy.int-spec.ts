import { randomUUID } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ErrorCode, MAX_UPLOAD_BYTES, mediaMessages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type IdleTimers, UPLOAD_IDLE_TIMERS } from '../src/http/idle-timers';
import { fetch, holdIdleTimers, openRequest, startAuthAndGateway } from './support';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small picture'),
]);

const invalidLink =
  'This upload link is not valid: it was altered, or the file is not the size the link was made for. Start the upload again.';

/** A PUT whose body is sent when the test says: it can declare a size and send nothing, stall, or drop. */
const openPut = (url: string, headers: Record<string, string | number>) => openRequest(url, 'PUT', headers);

describe('uploads through the gateway (PUT /store/…, no S3_PUBLIC_ENDPOINT)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;
  const opened: { drop(): void }[] = [];

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${sut.base}${path}`, {
      ...init,
      headers: { cookie, 'content-type': 'application/json', ...init.headers },
    });
  const uploadUrl = async (size?: number) => {
    const res = await api('/api/objects/upload', {
      method: 'POST',
      body: JSON.stringify(size === undefined ? {} : { size, contentType: 'image/png' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { uploadURL: string }).uploadURL;
  };
  const register = (roomImageURL: string) =>
    api('/api/room-images', { method: 'PUT', body: JSON.stringify({ roomImageURL }) });
  const put = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': 'image/png', ...headers } });

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      { UPLOAD_MAX_CONCURRENT: '1', UPLOAD_IDLE_TIMEOUT_MS: '4000' },
      { media: true, uploadsThroughGateway: true },
    );
    cookie = await sut.adminCookie();
  });
  afterEach(() => {
    for (const upload of opened.splice(0)) upload.drop();
  });
  afterAll(() => sut?.close());

  it('hands out a link under its own origin, forwards the PUT with a valid signature, and the image registers', async () => {
    const url = await uploadUrl(png.length);
    expect(url).toMatch(
      new RegExp(
        `^${sut.base}/store/${sut.namespace.replace(/_/g, '-')}-media/uploads/[0-9a-f-]{36}\\?X-Amz-`,
      ),
    );
    const checkedBefore = sut.signaturesChecked();

    const stored = await put(url, png);
    expect(stored.status).toBe(200);
    expect(stored.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    // The store checked the signature of what the gateway sent it, Host and Content-Length included.
    expect(sut.signaturesChecked()).toBe(checkedBefore + 1);

    const registered = await register(url);
    expect(registered.status).toBe(200);
    const { objectPath } = (await registered.json()) as { objectPath: string };
    const file = await fetch(`${sut.base}${objectPath}`, { headers: { cookie } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });

  it('refuses a link that is altered, signed for another size, or expired, with a clear 403', async () => {
    const url = new URL(await uploadUrl(png.length));
    const altered = new URL(url);
    altered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    const checkedBefore = sut.signaturesChecked();
    // The gateway answers the large one long before its body is sent.
    const large = Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024)]);
    for (const [link, body] of [
      [altered.toString(), png],
      [url.toString(), Buffer.concat([png, png])],
      [url.toString(), large],
    ] as const) {
      const res = await put(link, body);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: ErrorCode.UPLOAD_LINK_REFUSED, message: invalidLink });
    }

    const expired = new URL(url);
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z');
    const res = await put(expired.toString(), png);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: ErrorCode.UPLOAD_LINK_REFUSED,
      message: 'The upload link has expired (Request has expired). Start the upload again.',
    });
    // None of it reached the store, and nothing of it arrived.
    expect(sut.signaturesChecked()).toBe(checkedBefore);
    expect((await register(url.toString())).status).toBe(404);
  });

  it('refuses what is no upload link of this app, and reads nothing through it', async () => {
    const url = new URL(await uploadUrl(png.length));
    const bucket = url.pathname.split('/')[2];
    const elsewhere = (pathname: string) => `${sut.base}${pathname}${url.search}`;
    for (const link of [
      elsewhere(`/store/another-bucket/${url.pathname.split('/').slice(3).join('/')}`),
      elsewhere(`/store/${bucket}/photos/holiday.png`),
      elsewhere(`/store/${bucket}/uploads/not-a-uuid`),
      elsewhere(`/store/${bucket}`),
    ]) {
      const res = await put(link, png);
      expect([link, res.status]).toEqual([link, 404]);
      expect(await res.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    }

    const unsigned = await put(`${sut.base}${url.pathname}`, png);
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toEqual({
      code: ErrorCode.UPLOAD_LINK_REFUSED,
      message: 'This upload link is not signed. Request a new one with POST /api/objects/upload.',
    });

    // No reading objects through it, whatever the method.
    for (const method of ['GET', 'HEAD', 'POST', 'DELETE']) {
      const res = await fetch(url, { method, headers: { cookie } });
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'PUT']);
    }
  });

  it('answers 411 to a body of unstated size and 413 to one above the limit, before it is sent', async () => {
    const url = await uploadUrl();
    const chunked = openPut(url, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
    opened.push(chunked);
    expect(await chunked.answer).toEqual({
      status: 411,
      headers: expect.anything(),
      body: {
        code: ErrorCode.LENGTH_REQUIRED,
        message: 'The upload must state its size (Content-Length): send the file as one body.',
      },
    });

    const huge = openPut(url, { 'content-type': 'image/png', 'content-length': MAX_UPLOAD_BYTES + 1 });
    opened.push(huge);
    expect(await huge.answer).toMatchObject({
      status: 413,
      body: { code: ErrorCode.FILE_TOO_LARGE, message: mediaMessages.tooLarge },
    });
  });

  it('counts forwarded uploads in UPLOAD_MAX_CONCURRENT, cancels a silent one with 408, and frees its slot', async () => {
    // The idle time runs out when the test says so, not while a loaded machine is still
    // answering the requests that show the slot taken.
    const timers = holdIdleTimers(sut.gateway, UPLOAD_IDLE_TIMERS);
    try {
      const url = await uploadUrl(png.length);
      const stalled = openPut(url, { 'content-type': 'image/png', 'content-length': png.length });
      opened.push(stalled);
      await stalled.send(png.subarray(0, 4));
      // Its slot is taken before it is forwarded, and its idle timer starts with the forwarding: a
      // second upload sent earlier could take the only slot first and leave the stalled one a 429.
      await eventually(() => expect(timers.start).toHaveBeenCalledTimes(1));
      const busy = await put(await uploadUrl(png.length), png);
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('10');
      expect(await busy.json()).toMatchObject({ code: ErrorCode.TOO_MANY_UPLOADS });

      await eventually(() => expect(timers.runOut()).toBe(1));
      expect(await stalled.answer).toMatchObject({
        status: 408,
        body: { code: ErrorCode.UPLOAD_TIMEOUT, message: mediaMessages.idle },
      });
      const next = await uploadUrl(png.length);
      await eventually(async () => expect((await put(next, png)).status).toBe(200));
      expect(timers.start).toHaveBeenCalledWith(4000, expect.any(Function));
    } finally {
      timers.restore();
    }
  });

  it('frees the slot of a client that drops mid-file', async () => {
    const url = await uploadUrl(png.length);
    const dropped = openPut(url, { 'content-type': 'image/png', 'content-length': png.length });
    await dropped.send(png.subarray(0, 4));
    dropped.drop();
    const next = await uploadUrl(png.length);
    await eventually(async () => expect((await put(next, png)).status).toBe(200));
  });

  it('refuses a PUT from another site, and registers only links under its own origin', async () => {
    const url = await uploadUrl(png.length);
    const crossSite = await put(url, png, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ code: ErrorCode.CROSS_SITE_REQUEST });

    expect((await put(url, png)).status).toBe(200);
    const foreign = await register(url.replace(sut.base, 'https://evil.example'));
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ code: ErrorCode.FOREIGN_OBJECT_URL });
    expect((await register(url)).status).toBe(200);
  });
});

describe('uploads through the gateway to a store that checks no signature (s3rver, as npm start runs it)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let s3: S3Client;
  let cookie: string;
  const opened: { drop(): void }[] = [];

  const uploadUrlFor = async (session: string) => {
    const res = await fetch(`${sut.base}/api/objects/upload`, {
      method: 'POST',
      headers: { cookie: session, 'content-type': 'application/json' },
      body: JSON.stringify({ size: png.length, contentType: 'image/png' }),
    });
    expect(res.status).toBe(200);
    return new URL(((await res.json()) as { uploadURL: string }).uploadURL);
  };
  const register = async (url: URL) => {
    const res = await fetch(`${sut.base}/api/room-images`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ roomImageURL: url.toString() }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { objectPath: string }).objectPath;
  };
  const put = (url: URL | string, body: Buffer) =>
    fetch(url, { method: 'PUT', body, headers: { 'content-type': 'image/png' } });
  const served = async (objectPath: string) =>
    Buffer.from(await (await fetch(`${sut.base}${objectPath}`, { headers: { cookie } })).arrayBuffer());
  const inStore = async (key: string) =>
    s3
      .send(new HeadObjectCommand({ Bucket: sut.store.bucket, Key: key }))
      .then(() => true)
      .catch((error: { name?: string }) => {
        if (error.name === 'NotFound') return false;
        throw error;
      });
  const keyOf = (url: URL) => url.pathname.split('/').slice(3).join('/');
  const expectRefused = async (res: Response, message: string) => {
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: ErrorCode.UPLOAD_LINK_REFUSED, message });
  };
  const other = Buffer.concat([png.subarray(0, 8), Buffer.from('an attacker picture!!!!')]);

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      { UPLOAD_MAX_CONCURRENT: '5', UPLOAD_MAX_CONCURRENT_PER_USER: '2' },
      { media: true, uploadsThroughGateway: true, unsignedStore: true },
    );
    s3 = new S3Client({
      endpoint: sut.store.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    cookie = await sut.adminCookie();
  });
  afterEach(() => {
    for (const upload of opened.splice(0)) upload.drop();
  });
  afterAll(async () => {
    s3?.destroy();
    await sut?.close();
  });

  it('refuses an all-zero signature and a link moved to a key of its choosing, and a genuine upload still works', async () => {
    expect(other.length).toBe(png.length);
    const url = await uploadUrlFor(cookie);
    const zeroed = new URL(url);
    zeroed.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    await expectRefused(await put(zeroed, other), invalidLink);

    const made = `uploads/${randomUUID()}`;
    const moved = new URL(url);
    moved.pathname = url.pathname.replace(keyOf(url), made);
    await expectRefused(await put(moved, other), invalidLink);
    zeroed.pathname = moved.pathname;
    await expectRefused(await put(zeroed, other), invalidLink);
    expect(await inStore(keyOf(url))).toBe(false);
    expect(await inStore(made)).toBe(false);

    expect((await put(url, png)).status).toBe(200);
    expect(await served(await register(url))).toEqual(png);
  });

  it('never lets a registered picture be replaced: not through its own link, nor at the key it is served from', async () => {
    const url = await uploadUrlFor(cookie);
    expect((await put(url, png)).status).toBe(200);
    const objectPath = await register(url);

    // The link is still within its lifetime, and correctly signed.
    await expectRefused(
      await put(url, other),
      'This upload link was already used: its picture is saved and cannot be replaced. Start a new upload for another picture.',
    );
    const registeredKey = objectPath.replace('/objects/', '');
    for (const signature of ['0'.repeat(64), url.searchParams.get('X-Amz-Signature')!]) {
      const overwrite = new URL(url);
      overwrite.pathname = url.pathname.replace(keyOf(url), registeredKey);
      overwrite.searchParams.set('X-Amz-Signature', signature);
      await expectRefused(await put(overwrite, other), invalidLink);
    }
    expect(await served(objectPath)).toEqual(png);
  });

  it("counts a forwarded upload in the slots of the user who asked for its link: another's cannot use them up", async () => {
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'slot-hog', password: 'slot-hog secret' }),
    });
    expect(created.status).toBe(201);
    const hog = (await sut.signIn('slot-hog', 'slot-hog secret')).cookie;
    // The hog's uploads stall after a few bytes, each on a link of its own (UPLOAD_MAX_CONCURRENT_PER_USER 2).
    // A forwarded upload holds its slot, and its idle timer starts as it is forwarded.
    const forwarded = jest.spyOn(sut.gateway.app.get<IdleTimers>(UPLOAD_IDLE_TIMERS), 'start');
    for (let i = 0; i < 2; i++) {
      const stalled = openPut((await uploadUrlFor(hog)).toString(), {
        'content-type': 'image/png',
        'content-length': png.length,
      });
      opened.push(stalled);
      await stalled.send(png.subarray(0, 4));
    }
    // A third sent before both are forwarded could take a slot first.
    await eventually(() => expect(forwarded).toHaveBeenCalledTimes(2));
    forwarded.mockRestore();
    const third = await put(await uploadUrlFor(hog), png);
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({
      code: ErrorCode.TOO_MANY_UPLOADS,
      message: 'You already have 2 uploads in progress. Wait for one to finish, then try again.',
    });
    // Requests without a valid link hold no slot at all.
    for (let i = 0; i < 5; i++) {
      const zeroed = await uploadUrlFor(hog);
      zeroed.searchParams.set('X-Amz-Signature', '0'.repeat(64));
      const anonymous = openPut(zeroed.toString(), { 'content-type': 'image/png', 'content-length': 1 });
      opened.push(anonymous);
      expect((await anonymous.answer).status).toBe(403);
    }

    const url = await uploadUrlFor(cookie);
    expect((await put(url, png)).status).toBe(200);
    expect(await served(await register(url))).toEqual(png);
  });

  it('keeps issued links where every replica finds them: a link survives a gateway restart', async () => {
    const url = await uploadUrlFor(cookie);
    await sut.restartGateway();
    const moved = new URL(url.pathname + url.search, sut.base);
    expect((await put(moved, png)).status).toBe(200);
    expect(await served(await register(moved))).toEqual(png);
  });
});

describe('uploads straight to the store (S3_PUBLIC_ENDPOINT set)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { media: true });
  });
  afterAll(() => sut?.close());

  it('hands out the store’s own URL, and /store forwards nothing', async () => {
    const cookie = await sut.adminCookie();
    const res = await fetch(`${sut.base}/api/objects/upload`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '{}',
    });
    const { uploadURL } = (await res.json()) as { uploadURL: string };
    expect(uploadURL.startsWith(sut.base)).toBe(false);
    const { pathname, search } = new URL(uploadURL);
    const through = await fetch(`${sut.base}/store${pathname}${search}`, { method: 'PUT', body: png });
    expect(through.status).toBe(404);
    expect((await fetch(uploadURL, { method: 'PUT', body: png })).status).toBe(200);
  });
});
