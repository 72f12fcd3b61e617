import { messages } from '@cm/contracts';
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

  it('reports the object store down, naming it, when the store stops', async () => {
    await s3.close();
    const report = await sut.rpc.send(messages.media.health);
    expect(report.status).toBe('down');
    expect(report.checks.s3.status).toBe('down');
    expect(report.checks.postgres.status).toBe('up');
  });
});
