import { ErrorCode, type HealthReport, messages } from '@cm/contracts';
import { startLocalS3, startTestService, type TestService } from '@cm/platform/testing';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';
import { ObjectStore } from '../src/storage/object-store';

describe('media service start-up', () => {
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let sut: TestService<Config>;

  beforeAll(async () => {
    s3 = await startLocalS3();
    sut = await startTestService({
      service: 'media',
      schema: configSchema,
      module: AppModule.forRoot,
      env: { S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    });
  });
  afterAll(async () => {
    await sut?.close();
    await s3?.close();
  });

  it('creates its namespaced bucket when missing', async () => {
    const store = sut.app.get(ObjectStore);
    expect(store.bucket).toBe(`${sut.namespace.replace(/_/g, '-')}-media`);
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('reports PostgreSQL and the object store in its health answer', async () => {
    const report = await sut.rpc.send(messages.media.health);
    expect(report).toMatchObject({
      status: 'up',
      checks: { postgres: { status: 'up' }, s3: { status: 'up' } },
    });
  });

  it('stays ready when the store stops, reporting it down as a dependency that only informs', async () => {
    await s3.close();
    const ready = await fetch(`${await sut.app.getUrl()}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as HealthReport;
    expect(body.status).toBe('degraded');
    expect(body.checks.s3).toMatchObject({ status: 'down', critical: false, detail: expect.any(String) });
    expect(body.checks.postgres).toMatchObject({ status: 'up', critical: true });

    // Over NATS the state reads `down`, which gateways of the previous release still parse; the
    // checks carry the rest.
    const report = await sut.rpc.send(messages.media.health);
    expect(report.status).toBe('down');
    expect(report.checks.s3).toMatchObject({ status: 'down', critical: false });
    expect(report.checks.postgres.status).toBe('up');
  });

  it('answers a photo registration with 503, to try again, while the store is away', async () => {
    const { uploadURL } = await sut.rpc.send(messages.media.createUploadUrl, {});
    await expect(
      sut.rpc.send(messages.media.registerRoomImage, { roomImageURL: uploadURL }),
    ).rejects.toMatchObject({
      code: ErrorCode.SERVICE_UNAVAILABLE,
      message: 'The file store is unavailable. Try again shortly.',
    });
  });
});
