import { type DynamicModule, Module } from '@nestjs/common';
import { z } from 'zod';
import {
  coreEnv,
  type CoreConfig,
  drainAndShutDown,
  httpPortEnv,
  type HttpPortConfig,
  PlatformModule,
} from '../src';
import { startTestService } from '../src/testing';

@Module({})
class ProbeAppModule {
  static forRoot(config: CoreConfig): DynamicModule {
    return { module: ProbeAppModule, imports: [PlatformModule.forService({ service: 'media', config })] };
  }
}

// A file of its own: once stopping, the process stays so.
describe('drainAndShutDown', () => {
  it('goes on serving while it reports not ready for the delay, then closes', async () => {
    const sut = await startTestService<CoreConfig & HttpPortConfig>({
      service: 'media',
      schema: z.object({ ...coreEnv, ...httpPortEnv(0) }),
      module: ProbeAppModule.forRoot,
    });
    const url = await sut.app.getUrl();
    const closing = drainAndShutDown(sut.app, 5000);
    try {
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ checks: { shutdown: { status: 'down' } } });
      // A request the balancer still sends meanwhile is answered, not refused.
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      await closing;
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      await closing;
      await sut.rpc.onApplicationShutdown();
    }
  });
});
