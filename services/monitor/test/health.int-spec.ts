import { type HealthReport, patterns } from '@cm/contracts';
import { startTestService, type TestService } from '@cm/platform/testing';
import { AppModule } from '../src/app.module';
import { type Config, configSchema } from '../src/config';

describe('monitor service', () => {
  let sut: TestService<Config>;

  beforeAll(async () => {
    sut = await startTestService({ service: 'monitor', schema: configSchema, module: AppModule.forRoot });
  });
  afterAll(() => sut.close());

  it('answers its health pattern over NATS', async () => {
    const report = await sut.rpc.send<HealthReport>(patterns.monitor.health);
    expect(report.status).toBe('up');
  });
});
