import { createServer, type Server, type Socket } from 'node:net';
import { HealthService, parseEnv } from '@cm/platform';
import { startLocalS3, testEnv, testNamespace } from '@cm/platform/testing';
import { configSchema } from '../src/config';
import { ObjectStore } from '../src/storage/object-store';

const storeOf = async (endpoint: string, env: Record<string, string> = {}) => {
  const config = parseEnv(
    configSchema,
    testEnv(testNamespace('store'), {
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      ...env,
    }),
  );
  const health = new HealthService();
  return { sut: new ObjectStore(config, health), health };
};

describe(ObjectStore.name, () => {
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let sut: ObjectStore;
  let health: HealthService;

  const put = async (url: string, body: Buffer) => {
    const res = await fetch(url, { method: 'PUT', body });
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  };

  beforeAll(async () => {
    s3 = await startLocalS3();
    ({ sut, health } = await storeOf(s3.endpoint));
    await sut.onModuleInit();
  });
  afterAll(async () => {
    sut?.onApplicationShutdown();
    await s3?.close();
  });

  it('creates its bucket at start and reports the store in the health answer', async () => {
    await expect(sut.check()).resolves.toBeUndefined();
    expect((await health.report()).checks.s3).toMatchObject({ status: 'up' });
  });

  it('presigns a PUT, then heads, reads the start of, copies and deletes the object by key', async () => {
    const key = 'uploads/00000000-0000-4000-8000-000000000001';
    const body = Buffer.from('0123456789');
    const etag = await put(await sut.presignPut(key, body.length, 60), body);

    expect(await sut.head(key)).toEqual({ size: body.length, etag, lastModified: expect.any(Date) });
    expect(Buffer.from(await sut.readStart(key, 4))).toEqual(body.subarray(0, 4));
    expect(Buffer.from(await sut.readStart(key, 64))).toEqual(body);

    const copy = 'uploads/00000000-0000-4000-8000-000000000002';
    await sut.copy(key, copy);
    const download = await fetch(await sut.presignGet(copy, 60));
    expect(Buffer.from(await download.arrayBuffer())).toEqual(body);

    await sut.delete(key);
    expect(await sut.head(key)).toBeNull();
    await expect(sut.delete(key)).resolves.toBeUndefined();
  });

  // The local store has no AbortMultipartUpload (MethodNotAllowed), so aborting is not tried here.
  it('assembles a multipart upload from presigned parts, whatever the order they are listed in', async () => {
    const key = 'uploads/00000000-0000-4000-8000-000000000003';
    const uploadId = await sut.startMultipart(key, 'image/png');
    const parts = [Buffer.alloc(5 * 1024 * 1024, 1), Buffer.from('tail')];
    const etags = [];
    for (const [i, part] of parts.entries()) {
      etags.push({
        partNumber: i + 1,
        etag: await put(await sut.presignPart(key, uploadId, i + 1, 60), part),
      });
    }
    await sut.completeMultipart(key, uploadId, etags.reverse());
    expect((await sut.head(key))?.size).toBe(parts[0].length + parts[1].length);
  });

  it('knows the keys of its own URLs only', async () => {
    const key = 'uploads/00000000-0000-4000-8000-000000000005';
    const url = await sut.presignPut(key, 1, 60);
    expect(sut.keyOfUrl(url)).toBe(key);
    expect(sut.keyOfUrl(url.replace(`/${sut.bucket}/`, '/another-bucket/'))).toBeNull();
  });

  describe('a store that accepts connections but never answers', () => {
    let silent: Server;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      silent = createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('gives every call up within its deadline instead of hanging', async () => {
      const { port } = silent.address() as { port: number };
      const { sut: stalled } = await storeOf(`http://127.0.0.1:${port}`, { S3_REQUEST_TIMEOUT_MS: '200' });
      try {
        const started = Date.now();
        await expect(stalled.head('uploads/00000000-0000-4000-8000-000000000006')).rejects.toThrow();
        await expect(stalled.check()).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(5000);
      } finally {
        stalled.onApplicationShutdown();
      }
    });
  });
});
