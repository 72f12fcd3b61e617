import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ErrorCode, mediaMessages } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { UPLOAD_IDLE_TIMERS } from '../src/http/idle-timers';
import { UploadSlots } from '../src/media/upload-slots';
import { fetch, holdIdleTimers, openRequest, startAuthAndGateway } from './support';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small picture'),
]);
const jpegOf = (size: number) => {
  const bytes = Buffer.alloc(size, 0x5a);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(bytes);
  return bytes;
};

const PART_BYTES = 5 * 1024 * 1024;

// Collecting before each reading leaves only what is still held, not garbage awaiting a collection.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
/** Buffer memory of this process (the gateway's part buffers among it), once garbage is collected. */
const heldBufferBytes = () => {
  collectGarbage();
  return process.memoryUsage().arrayBuffers;
};

const boundary = 'cm-upload-boundary';
const formHead = Buffer.from(
  `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
);
const formTail = Buffer.from(`\r\n--${boundary}--\r\n`);

/**
 * A POST /api/upload whose body is sent when the test says (chunked): it can stall mid-file,
 * go on, end, or drop.
 */
const openUpload = (base: string, cookie: string) =>
  openRequest(`${base}/api/upload`, 'POST', {
    cookie,
    'content-type': `multipart/form-data; boundary=${boundary}`,
  });

describe('streamed uploads (POST /api/upload) under limits', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  let ann: string;
  const opened: { drop(): void }[] = [];

  /** Starts an upload that sends the first bytes of a JPEG and then waits. */
  const stalledUpload = async (cookie: string) => {
    const upload = openUpload(sut.base, cookie);
    opened.push(upload);
    await upload.send(Buffer.concat([formHead, jpegOf(64 * 1024)]));
    return upload;
  };

  /** Streamed uploads media has opened and not yet completed or aborted. */
  const openInStore = async () => {
    const rows = (await sut.gateway.app
      .get(DataSource)
      .query(
        `SELECT count(*) AS n FROM "${sut.namespace}_media".objects WHERE status = 'pending' AND upload_id IS NOT NULL`,
      )) as { n: string }[];
    return Number(rows[0].n);
  };

  const upload = (cookie: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'photo.png');
    return fetch(`${sut.base}/api/upload`, { method: 'POST', body: form, headers: { cookie } });
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      {
        UPLOAD_MAX_CONCURRENT: '3',
        UPLOAD_MAX_CONCURRENT_PER_USER: '2',
        // The limit tests hold uploads open: they must not time out meanwhile.
        UPLOAD_IDLE_TIMEOUT_MS: '600000',
      },
      { media: true },
    );
    admin = await sut.adminCookie();
    const created = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ann', password: 'ann reads the manual' }),
    });
    expect(created.status).toBe(201);
    ann = (await sut.signIn('ann', 'ann reads the manual')).cookie;
  });
  afterEach(async () => {
    for (const upload of opened.splice(0)) upload.drop();
    await eventually(async () => expect(await openInStore()).toBe(0));
    // Media may let go of an upload before the gateway has noticed its client leave: the next
    // test's uploads must find every slot free, not one still held by a dropped upload.
    await eventually(() => expect(sut.gateway.app.get(UploadSlots).inProgress).toBe(0));
  });
  afterAll(() => sut?.close());

  // First, while no earlier upload's buffer may still be on its way out.
  it('holds one part buffer per upload in progress, none for refused ones, and frees them when uploads end', async () => {
    // The services of this process may still be letting go of start-up buffers: measure from a
    // level that holds for a moment, or their release would hide the parts taken below.
    const before = await eventually(async () => {
      const first = heldBufferBytes();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = heldBufferBytes();
      expect(Math.abs(second - first)).toBeLessThan(256 * 1024);
      return second;
    });
    const accepted = [await stalledUpload(admin), await stalledUpload(admin), await stalledUpload(ann)];
    await eventually(async () => expect(await openInStore()).toBe(3));
    // Media records an upload before the gateway has filled its part buffer.
    await eventually(() =>
      expect(heldBufferBytes() - before).toBeGreaterThanOrEqual(3 * PART_BYTES - 2 ** 20),
    );
    const withAccepted = heldBufferBytes();
    const refused = [];
    for (let i = 0; i < 6; i++) refused.push(await stalledUpload(i % 2 ? admin : ann));
    for (const upload of refused) expect((await upload.answer).status).toBe(429);
    const withRefused = heldBufferBytes();
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
    process.stdout.write(
      `buffers held: 3 uploads in progress ${mb(withAccepted - before)} MB, 6 more refused ${mb(withRefused - withAccepted)} MB\n`,
    );

    // Six refused uploads that each held a part would add 30 MB.
    expect(withRefused - withAccepted).toBeLessThan(PART_BYTES);

    for (const upload of accepted) upload.drop();
    await eventually(async () => expect(await openInStore()).toBe(0));
    await eventually(() => expect(heldBufferBytes() - before).toBeLessThan(PART_BYTES));
  });

  it("refuses a user's upload past their limit with 429 and Retry-After, and lets another user upload", async () => {
    await stalledUpload(admin);
    await stalledUpload(admin);
    await eventually(async () => expect(await openInStore()).toBe(2));

    const refused = await upload(admin, png);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({
      code: ErrorCode.TOO_MANY_UPLOADS,
      message: 'You already have 2 uploads in progress. Wait for one to finish, then try again.',
    });
    expect((await upload(ann, png)).status).toBe(200);
  });

  it("refuses any upload past the gateway's limit, whoever sends it", async () => {
    await stalledUpload(admin);
    await stalledUpload(admin);
    await stalledUpload(ann);
    await eventually(async () => expect(await openInStore()).toBe(3));

    const refused = await upload(ann, png);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toMatchObject({
      code: ErrorCode.TOO_MANY_UPLOADS,
      message: 'The server is busy with other uploads. Try again in a few seconds.',
    });
  });

  it('gives a slot back when an upload finishes, fails or its client drops', async () => {
    const finishing = await stalledUpload(admin);
    const dropping = await stalledUpload(admin);
    await eventually(async () => expect(await openInStore()).toBe(2));
    expect((await upload(admin, png)).status).toBe(429);

    finishing.end(formTail);
    expect(await finishing.answer).toMatchObject({ status: 200, body: { url: expect.any(String) } });
    dropping.drop();
    await eventually(async () => expect(await openInStore()).toBe(0));
    // Both slots are free again: two uploads at once pass.
    const [a, b] = await Promise.all([upload(admin, png), upload(admin, png)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await upload(admin, Buffer.from('not an image'))).status).toBe(415);
    expect((await upload(admin, png)).status).toBe(200);
  });

  it('answers 400 to a body that ends before the file does, and aborts what it stored', async () => {
    const truncated = openUpload(sut.base, admin);
    opened.push(truncated);
    // Past one 5 MB part, so that the store holds a part when the body ends.
    await truncated.send(Buffer.concat([formHead, jpegOf(6 * 1024 * 1024)]));
    await eventually(async () => expect(await openInStore()).toBe(1));
    truncated.end();
    expect(await truncated.answer).toMatchObject({
      status: 400,
      body: { code: ErrorCode.VALIDATION_FAILED, message: mediaMessages.truncated },
    });
    await eventually(async () => expect(await openInStore()).toBe(0));
  });

  describe('a client that stops sending', () => {
    // The idle time runs out when the test says so: a loaded machine may leave even a client that
    // is sending unread for longer than a short one.
    let timers: ReturnType<typeof holdIdleTimers>;
    beforeEach(() => {
      timers = holdIdleTimers(sut.gateway, UPLOAD_IDLE_TIMERS);
    });
    afterEach(() => timers.restore());

    it('is answered 408 and closed, its store upload aborted and its slot given back', async () => {
      const stalled = await stalledUpload(admin);
      await eventually(async () => expect(await openInStore()).toBe(1));
      // The file has begun: what runs out now is the wait for its next piece.
      await eventually(() => expect(timers.runOut()).toBeGreaterThan(0));
      const answer = await stalled.answer;
      expect(answer).toMatchObject({
        status: 408,
        headers: { connection: 'close' },
        body: { code: ErrorCode.UPLOAD_TIMEOUT, message: mediaMessages.idle },
      });
      await eventually(async () => expect(await openInStore()).toBe(0));
      // Both slots of the user are free again.
      const [a, b] = await Promise.all([upload(admin, png), upload(admin, png)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(timers.start).toHaveBeenCalledWith(600_000, expect.any(Function));
    });

    it('is answered 408 also when it stalls before the file begins', async () => {
      const early = openUpload(sut.base, admin);
      opened.push(early);
      await early.send(Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`));
      await eventually(() => expect(timers.runOut()).toBe(1));
      expect(await early.answer).toMatchObject({ status: 408, body: { code: ErrorCode.UPLOAD_TIMEOUT } });
    });
  });
});

describe('presigned uploads (POST /api/objects/upload, PUT /api/room-images)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  const api = (path: string, method: string, body?: unknown) =>
    fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { media: true });
    cookie = await sut.adminCookie();
  });
  afterAll(() => sut?.close());

  it('answers 400 saying the file is empty when an empty upload is registered', async () => {
    const { uploadURL } = (await (await api('/api/objects/upload', 'POST')).json()) as { uploadURL: string };
    expect((await globalThis.fetch(uploadURL, { method: 'PUT', body: Buffer.alloc(0) })).status).toBe(200);
    const res = await api('/api/room-images', 'PUT', { roomImageURL: uploadURL });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: ErrorCode.NO_FILE, message: mediaMessages.empty });
  });

  it('refuses to sign for an empty, oversize or non-image file before it is sent', async () => {
    const refused = async (body: unknown) => {
      const res = await api('/api/objects/upload', 'POST', body);
      return { status: res.status, ...((await res.json()) as { message: string }) };
    };
    expect(await refused({ size: 0 })).toMatchObject({ status: 400, message: mediaMessages.empty });
    expect(await refused({ size: 50_485_761 })).toMatchObject({
      status: 400,
      message: mediaMessages.tooLarge,
    });
    expect(await refused({ size: 1000, contentType: 'image/svg+xml' })).toMatchObject({
      status: 415,
      message: mediaMessages.notAnImage,
    });
    const signed = await api('/api/objects/upload', 'POST', { size: png.length, contentType: 'image/png' });
    expect(signed.status).toBe(200);
  });
});

describe('an upload sent again with its Idempotency-Key (a phone that did not get the answer)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  const upload = (bytes: Buffer, key: string) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'photo.png');
    return fetch(`${sut.base}/api/upload`, {
      method: 'POST',
      body: form,
      headers: { cookie, 'idempotency-key': key },
    });
  };
  const storedObjects = async () => {
    const rows = (await sut.gateway.app
      .get(DataSource)
      .query(`SELECT count(*) AS n FROM "${sut.namespace}_media".objects`)) as { n: string }[];
    return Number(rows[0].n);
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { media: true });
    cookie = await sut.adminCookie();
  });
  afterAll(() => sut?.close());

  it('answers the first upload and stores the file once', async () => {
    const key = `upload-${Date.now()}-once`;
    const before = await storedObjects();
    const first = await upload(png, key);
    expect(first.status).toBe(200);
    const { url } = (await first.json()) as { url: string };
    const retry = await upload(png, key);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual({ url });
    expect(await storedObjects()).toBe(before + 1);
  });

  it('refuses a file that is not an image with its reason each time, storing nothing', async () => {
    const key = `upload-${Date.now()}-refused`;
    const before = await storedObjects();
    for (let i = 0; i < 2; i++) {
      const res = await upload(Buffer.from('plain text, not a picture'), key);
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({
        code: ErrorCode.NOT_AN_IMAGE,
        message: mediaMessages.notAnImage,
      });
    }
    expect(await storedObjects()).toBe(before);
  });
});
