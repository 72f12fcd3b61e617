import { Controller, type DynamicModule, Get, Module } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import { z } from 'zod';
import { coreEnv, type CoreConfig, httpPortEnv, type HttpPortConfig, PlatformModule, shutDown } from '../src';
import { startTelemetry } from '../src/telemetry';
import { OtlpReceiver, startTestService } from '../src/testing';

// HTTP is not instrumented under jest (its module loader bypasses the hooks): the handler makes
// its own span, as the NATS transports do.
@Controller()
class WorkController {
  @Get('work')
  work(): { done: boolean } {
    trace.getTracer('test').startActiveSpan('work', (span) => span.end());
    return { done: true };
  }
}

@Module({})
class WorkAppModule {
  static forRoot(config: CoreConfig): DynamicModule {
    return {
      module: WorkAppModule,
      imports: [PlatformModule.forService({ service: 'monitor', config })],
      controllers: [WorkController],
    };
  }
}

describe('telemetry at shutdown', () => {
  let receiver: OtlpReceiver;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    // The batch would go out in a minute: only the flush at shutdown can deliver it in this test.
    process.env.OTEL_BSP_SCHEDULE_DELAY = '60000';
    startTelemetry({ serviceName: 'probe', env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });
  });

  afterAll(async () => {
    delete process.env.OTEL_BSP_SCHEDULE_DELAY;
    await receiver?.close();
  });

  it('sends the spans of the last requests once the app has closed', async () => {
    const sut = await startTestService<CoreConfig & HttpPortConfig>({
      service: 'monitor',
      schema: z.object({ ...coreEnv, ...httpPortEnv(0) }),
      module: WorkAppModule.forRoot,
    });
    await sut.rpc.onApplicationShutdown();

    expect((await fetch(`${await sut.app.getUrl()}/work`)).status).toBe(200);
    expect(receiver.spans).toEqual([]);
    await shutDown(sut.app);

    expect(receiver.spans).toContainEqual(expect.objectContaining({ service: 'probe', name: 'work' }));
  });
});
