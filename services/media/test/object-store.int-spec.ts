import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { ErrorCode } from '@cm/contracts';
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

  // s3rver accepts any V4 signature; S3 and MinIO recompute it from the request they receive.
  it('signs the length into a presigned PUT, so a store checking signatures refuses any other length', async () => {
    const url = await sut.presignPut('uploads/00000000-0000-4000-8000-000000000006', 1000, 60);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
    expect(signatureHolds(url, 'PUT', { 'content-length': '1000' }, 'S3RVER')).toBe(true);
    expect(signatureHolds(url, 'PUT', { 'content-length': String(60 * 1024 * 1024) }, 'S3RVER')).toBe(false);
    expect(signatureHolds(url, 'PUT', { 'content-length': '999' }, 'S3RVER')).toBe(false);
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
        // Ended by the call's deadline (its abort), not by how long a loaded machine takes: a call
        // without one would hang until the test's timeout.
        const aborted = expect.objectContaining({ name: 'AbortError' });
        await expect(stalled.head('uploads/00000000-0000-4000-8000-000000000006')).rejects.toMatchObject({
          code: ErrorCode.SERVICE_UNAVAILABLE,
          cause: aborted,
        });
        await expect(stalled.check()).rejects.toEqual(aborted);
      } finally {
        stalled.onApplicationShutdown();
      }
    });
  });
});

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const rfc3986 = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether a presigned URL's SigV4 signature holds for a request with these headers, computed as
 * a store that checks signatures does: from the request it received, each signed header's value
 * taken from that request.
 */
function signatureHolds(presigned: string, method: string, headers: Record<string, string>, secret: string) {
  const url = new URL(presigned);
  const query = [...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature');
  const signed = url.searchParams.get('X-Amz-SignedHeaders')!.split(';');
  const received: Record<string, string> = { host: url.host, ...headers };
  const canonicalRequest = [
    method,
    url.pathname,
    query
      .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
      .sort()
      .join('&'),
    ...signed.map((name) => `${name}:${received[name] ?? ''}`),
    '',
    signed.join(';'),
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const [, date, region, service] = url.searchParams.get('X-Amz-Credential')!.split('/');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    url.searchParams.get('X-Amz-Date'),
    scope,
    createHash('sha256').update(canonicalRequest).digest('hex'),
  ].join('\n');
  const key = [date, region, service, 'aws4_request'].reduce<Buffer | string>(hmac, `AWS4${secret}`);
  return hmac(key, stringToSign).toString('hex') === url.searchParams.get('X-Amz-Signature');
}
