import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { ErrorCode, type ImageContentType, MAX_UPLOAD_BYTES, messages } from '@cm/contracts';
import { startLocalS3, startTestService, type TestService } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';
import { ObjectsService } from '../src/objects/objects.service';
import { UploadCleanupService } from '../src/objects/upload-cleanup.service';
import { ObjectStore } from '../src/storage/object-store';

const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('rest of a small picture'),
]);

describe('media objects', () => {
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let publicEndpoint: string;
  let sut: TestService<Config>;

  const start = (env: Record<string, string> = {}, namespace?: string) =>
    startTestService({
      service: 'media',
      schema: configSchema,
      module: AppModule.forRoot,
      namespace,
      env: {
        S3_ENDPOINT: s3.endpoint,
        // Browsers reach the store by another name than the service does.
        S3_PUBLIC_ENDPOINT: publicEndpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_CORS_ORIGINS: 'http://app.test:8080',
        ...env,
      },
    });

  const exists = async (service: TestService<Config>, key: string) =>
    (await service.app.get(ObjectStore).head(key)) !== null;

  const uploadUrl = async (service = sut) =>
    (await service.rpc.send(messages.media.createUploadUrl, {})).uploadURL;

  /**
   * A browser's PUT to the presigned URL, on a connection of its own: a kept-alive one that the
   * store closes as the next upload starts on it is reset (seen with 50 MB on a loaded machine),
   * which would be a test of keep-alive timing, not of media.
   */
  const put = async (url: string, body: Buffer) => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(url, { method: 'PUT', agent: false, timeout: 60_000 }, (res) => {
        res.resume().on('end', () => resolve(res.statusCode));
      });
      req.on('timeout', () => req.destroy(new Error(`No answer to the PUT of ${url} within 60 s`)));
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    publicEndpoint = s3.endpoint.replace('127.0.0.1', 'localhost');
    sut = await start();
  });
  afterAll(async () => {
    await sut?.close();
    await s3?.close();
  });

  describe('presigned upload and registration', () => {
    it('hands out a 15-minute PUT URL on the public endpoint, to a fresh uploads/ key', async () => {
      const [a, b] = [new URL(await uploadUrl()), new URL(await uploadUrl())];
      expect(a.origin).toBe(publicEndpoint);
      expect(a.pathname).toMatch(new RegExp(`^/${sut.app.get(ObjectStore).bucket}/uploads/[0-9a-f-]{36}$`));
      expect(a.pathname).not.toBe(b.pathname);
      expect(a.searchParams.get('X-Amz-Expires')).toBe('900');
    });

    it('lets the browser of the app origin PUT across origins (bucket CORS)', async () => {
      const preflight = async (origin: string) =>
        fetch(await uploadUrl(), {
          method: 'OPTIONS',
          headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT' },
        });
      const allowed = await preflight('http://app.test:8080');
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/app\.test:8080)$/);
      expect((await preflight('http://other.test')).status).toBe(403);
    });

    it('registers an uploaded image and serves it back with its detected type', async () => {
      const url = await uploadUrl();
      await put(url, png);
      const { objectPath } = await sut.rpc.send(messages.media.registerRoomImage, {
        roomImageURL: url,
      });
      const uploadKey = new URL(url).pathname.split('/').slice(2).join('/');
      expect(objectPath).toMatch(/^\/objects\/uploads\/[0-9a-f-]{36}$/);
      // Served from a copy no URL was issued for: the upload URL cannot replace what was checked.
      expect(objectPath).not.toBe(`/objects/${uploadKey}`);
      expect(await exists(sut, uploadKey)).toBe(false);
      const key = objectPath.slice('/objects/'.length);
      await put(url, Buffer.from('<html>replaced</html>'));
      const again = await sut.rpc.send(messages.media.registerRoomImage, {
        roomImageURL: url.split('?')[0],
      });
      expect(again.objectPath).toBe(objectPath);

      const download = await sut.rpc.send(messages.media.getObject, { key });
      expect(download).toMatchObject({ contentType: 'image/png', size: png.length });
      const res = await fetch(download.url);
      expect(Buffer.from(await res.arrayBuffer())).toEqual(png);
    });

    it('tells whether an upload link may still write its key: until it is registered or expires, and for no other key', async () => {
      const link = async (key: string) => sut.rpc.send(messages.media.findUploadLink, { key });
      const keyOf = (url: string) => new URL(url).pathname.split('/').slice(2).join('/');
      const { uploadURL } = await sut.rpc.send(messages.media.createUploadUrl, {
        ownerId: 'owner-1',
        size: png.length,
      });
      const key = keyOf(uploadURL);
      expect(await link(key)).toEqual({ state: 'open', ownerId: 'owner-1' });

      await put(uploadURL, png);
      const { objectPath } = await sut.rpc.send(messages.media.registerRoomImage, {
        roomImageURL: uploadURL,
      });
      expect(await link(key)).toEqual({ state: 'used', ownerId: 'owner-1' });
      // The registered copy, a key never issued: no link writes them.
      expect(await link(objectPath.slice('/objects/'.length))).toEqual({ state: 'unknown', ownerId: null });
      expect(await link(`uploads/${randomUUID()}`)).toEqual({ state: 'unknown', ownerId: null });

      const late = keyOf(await uploadUrl());
      await sut.app
        .get(DataSource)
        .query(
          `UPDATE "${sut.namespace}_media".objects SET link_expires_at = now() - interval '1 second' WHERE key = $1`,
          [late],
        );
      expect(await link(late)).toEqual({ state: 'expired', ownerId: null });
    });

    it('refuses a text file, whatever it is called, and removes it', async () => {
      const url = await uploadUrl();
      await put(url, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
      await expect(
        sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: url }),
      ).rejects.toMatchObject({ code: ErrorCode.NOT_AN_IMAGE });
      const key = new URL(url).pathname.split('/').slice(2).join('/');
      expect(await exists(sut, key)).toBe(false);
    });

    it('refuses a file over 50485760 bytes and removes it', async () => {
      const url = await uploadUrl();
      const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1);
      png.copy(big);
      await put(url, big);
      await expect(
        sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: url }),
      ).rejects.toMatchObject({ code: ErrorCode.FILE_TOO_LARGE });
    });

    it('refuses URLs of other stores and keys it never issued', async () => {
      const url = new URL(await uploadUrl());
      await put(url.toString(), png);
      const bucket = sut.app.get(ObjectStore).bucket;
      for (const foreign of [
        `https://evil.test/${bucket}${url.pathname.slice(bucket.length + 1)}`,
        `${url.origin}/other-bucket${url.pathname.slice(bucket.length + 1)}`,
        `${url.origin}/${bucket}/uploads/../uploads/x`,
        'not a url',
      ]) {
        await expect(
          sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: foreign }),
        ).rejects.toMatchObject({ code: ErrorCode.FOREIGN_OBJECT_URL });
      }
      await expect(
        sut.rpc.send(messages.media.registerRoomImage, {
          roomImageURL: `${url.origin}/${bucket}/uploads/00000000-0000-4000-8000-000000000000`,
        }),
      ).rejects.toMatchObject({ code: ErrorCode.OBJECT_NOT_FOUND });
    });

    it('answers not found for a URL that was issued but never uploaded to', async () => {
      await expect(
        sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: await uploadUrl() }),
      ).rejects.toMatchObject({ code: ErrorCode.OBJECT_NOT_FOUND });
    });

    it('does not serve what is not registered', async () => {
      const key = new URL(await uploadUrl()).pathname.split('/').slice(2).join('/');
      await expect(sut.rpc.send(messages.media.getObject, { key })).rejects.toMatchObject({
        code: ErrorCode.OBJECT_NOT_FOUND,
      });
      await expect(sut.rpc.send(messages.media.getObject, { key: '../etc/passwd' })).rejects.toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
      });
    });
  });

  it('names, of the keys asked about, only the registered objects (a picture field may store those)', async () => {
    const url = await uploadUrl();
    await put(url, png);
    const registered = (
      await sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: url })
    ).objectPath.slice('/objects/'.length);
    const uploadKey = new URL(url).pathname.split('/').slice(2).join('/');
    const pending = new URL(await uploadUrl()).pathname.split('/').slice(2).join('/');
    const unknown = `uploads/${randomUUID()}`;
    await expect(
      sut.rpc.send(messages.media.findRegistered, { keys: [registered, uploadKey, pending, unknown] }),
    ).resolves.toEqual({ registered: [registered] });
    await expect(
      sut.rpc.send(messages.media.findRegistered, { keys: ['../api/logout'] }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
  });

  describe('streamed upload (the gateway PUTs the parts)', () => {
    const send = async (parts: Buffer[], contentType: ImageContentType = 'image/jpeg') => {
      const session = await sut.rpc.send(messages.media.createUpload, { contentType });
      const etags = [];
      for (const [i, part] of parts.entries()) {
        const res = await fetch(session.partUrls[i], { method: 'PUT', body: part });
        expect(res.status).toBe(200);
        etags.push({ partNumber: i + 1, etag: res.headers.get('etag')! });
      }
      return { session, etags };
    };

    it('signs enough parts for the largest file and completes into a registered object', async () => {
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(6 * 1024 * 1024, 7)]);
      const { session, etags } = await send([
        jpeg.subarray(0, 5 * 1024 * 1024),
        jpeg.subarray(5 * 1024 * 1024),
      ]);
      expect(session.partSize * session.partUrls.length).toBeGreaterThanOrEqual(MAX_UPLOAD_BYTES);
      const { url } = await sut.rpc.send(messages.media.completeUpload, {
        key: session.key,
        uploadId: session.uploadId,
        parts: etags,
      });
      expect(url).toBe(`/objects/${session.key}`);
      const download = await sut.rpc.send(messages.media.getObject, { key: session.key });
      expect(download).toMatchObject({ contentType: 'image/jpeg', size: jpeg.length });
    });

    it('refuses a content type that is not an accepted image', async () => {
      await expect(
        sut.rpc.send(messages.media.createUpload, { contentType: 'image/svg+xml' as never }),
      ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    });

    it('forgets an aborted upload', async () => {
      const { session } = await send([png]);
      await expect(
        sut.rpc.send(messages.media.abortUpload, { key: session.key, uploadId: session.uploadId }),
      ).resolves.toEqual({ aborted: true });
      await expect(
        sut.rpc.send(messages.media.completeUpload, {
          key: session.key,
          uploadId: session.uploadId,
          parts: [{ partNumber: 1, etag: 'x' }],
        }),
      ).rejects.toMatchObject({ code: ErrorCode.OBJECT_NOT_FOUND });
    });
  });

  it('stores no status but pending and registered (attached was never set, and is gone)', async () => {
    const insert = (status: string) =>
      sut.app
        .get(DataSource)
        .query(
          `INSERT INTO "${sut.namespace}_media".objects (key, status) VALUES ($1, $2) RETURNING status`,
          [`uploads/${randomUUID()}`, status],
        );
    await expect(insert('registered')).resolves.toEqual([{ status: 'registered' }]);
    await expect(insert('attached')).rejects.toThrow(/objects_status_check/);
  });

  describe(UploadCleanupService.name, () => {
    it('removes uploads never registered after the retention period, once, in one replica at a time', async () => {
      const replicaA = await start({ MEDIA_UPLOAD_RETENTION_MS: '1', MEDIA_CLEANUP_INTERVAL_MS: '3600000' });
      const replicaB = await start(
        { MEDIA_UPLOAD_RETENTION_MS: '1', MEDIA_CLEANUP_INTERVAL_MS: '3600000' },
        replicaA.namespace,
      );
      try {
        const keyOf = (url: string) => new URL(url).pathname.split('/').slice(2).join('/');
        const abandoned = await Promise.all([uploadUrl(replicaA), uploadUrl(replicaA), uploadUrl(replicaA)]);
        for (const url of abandoned) await put(url, png);
        const kept = await uploadUrl(replicaA);
        await put(kept, png);
        const { objectPath } = await replicaA.rpc.send(messages.media.registerRoomImage, {
          roomImageURL: kept,
        });
        await new Promise((resolve) => setTimeout(resolve, 20));

        // Whichever replica takes the lock holds it until the other has tried: the overlap that a
        // loaded machine, running one sweep to its end before the other starts, might not give.
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        for (const replica of [replicaA, replicaB]) {
          const service = replica.app.get(ObjectsService);
          const discard = service.discardUpload.bind(service);
          jest.spyOn(service, 'discardUpload').mockImplementation(async (key, uploadId) => {
            await held;
            return discard(key, uploadId);
          });
        }
        const sweeps = [
          replicaA.app.get(UploadCleanupService).sweep(),
          replicaB.app.get(UploadCleanupService).sweep(),
        ];
        expect(await Promise.race(sweeps)).toBeNull();
        release();
        const results = await Promise.all(sweeps);
        // The three abandoned uploads, and the upload record of the registered one (its copy stays).
        expect(results.filter((r) => r !== null).reduce((a, b) => a! + b!, 0)).toBe(4);
        expect(results).toContain(null);
        for (const url of abandoned) expect(await exists(replicaA, keyOf(url))).toBe(false);
        expect(await exists(replicaA, objectPath.slice('/objects/'.length))).toBe(true);
        await expect(
          replicaA.rpc.send(messages.media.registerRoomImage, { roomImageURL: abandoned[0] }),
        ).rejects.toMatchObject({ code: ErrorCode.OBJECT_NOT_FOUND });
      } finally {
        await replicaB.close();
        await replicaA.close();
      }
    });
  });
});
