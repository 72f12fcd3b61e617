import { type HealthReport, patterns } from '@cm/contracts';
import { startTestService, type TestService } from '@cm/platform/testing';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';

describe('inventory service', () => {
  let sut: TestService<Config>;

  beforeAll(async () => {
    sut = await startTestService({ service: 'inventory', schema: configSchema, module: AppModule.forRoot });
  });
  afterAll(() => sut.close());

  it('answers its health pattern over NATS with PostgreSQL up', async () => {
    const report = await sut.rpc.send<HealthReport>(patterns.inventory.health);
    expect(report.status).toBe('up');
    expect(report.checks.postgres.status).toBe('up');
  });

  it('serves liveness and readiness probes over HTTP', async () => {
    const base = await sut.app.getUrl();
    await expect(fetch(`${base}/healthz`).then((r) => r.json())).resolves.toEqual({ status: 'up' });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
  });
});
