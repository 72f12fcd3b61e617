import { ErrorCode, MAX_UPLOAD_BYTES, mediaMessages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { fetch, openRequest, startAuthAndGateway } from './support';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small picture'),
]);

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

  it("passes the store's refusal of a link on as a clear 403: altered, signed for another size, or expired", async () => {
    const url = new URL(await uploadUrl(png.length));
    const altered = new URL(url);
    altered.searchParams.set('X-Amz-Signature', '0'.repeat(64));
    // The store answers the large one long before its body is sent.
    const large = Buffer.concat([png, Buffer.alloc(8 * 1024 * 1024)]);
    for (const [link, body] of [
      [altered.toString(), png],
      [url.toString(), Buffer.concat([png, png])],
      [url.toString(), large],
    ] as const) {
      const res = await put(link, body);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        code: ErrorCode.UPLOAD_LINK_REFUSED,
        message:
          'The file store refused the upload link (SignatureDoesNotMatch): it does not match this file or was altered. Start the upload again.',
      });
    }

    const expired = new URL(url);
    expired.searchParams.set('X-Amz-Date', '20200101T000000Z');
    const res = await put(expired.toString(), png);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      code: ErrorCode.UPLOAD_LINK_REFUSED,
      message: expect.stringContaining('Request has expired'),
    });
    // Nothing of what was refused arrived.
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
    const url = await uploadUrl(png.length);
    const stalled = openPut(url, { 'content-type': 'image/png', 'content-length': png.length });
    opened.push(stalled);
    await stalled.send(png.subarray(0, 4));
    await eventually(async () => {
      const busy = await put(await uploadUrl(png.length), png);
      expect(busy.status).toBe(429);
      expect(busy.headers.get('retry-after')).toBe('10');
      expect(await busy.json()).toMatchObject({ code: ErrorCode.TOO_MANY_UPLOADS });
    });

    expect(await stalled.answer).toMatchObject({
      status: 408,
      body: { code: ErrorCode.UPLOAD_TIMEOUT, message: mediaMessages.idle },
    });
    const next = await uploadUrl(png.length);
    await eventually(async () => expect((await put(next, png)).status).toBe(200));
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
