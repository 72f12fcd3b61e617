import { ErrorCode, messages } from '@cm/contracts';
import { Controller, type DynamicModule, Module } from '@nestjs/common';
import { z } from 'zod';
import {
  AppError,
  coreEnv,
  type CoreConfig,
  HandleMessage,
  httpPortEnv,
  type HttpPortConfig,
  PlatformModule,
  startDraining,
} from '../src';
import { startTestService } from '../src/testing';

@Controller()
class FailingController {
  @HandleMessage(messages.monitor.status)
  status(): never {
    throw new AppError(ErrorCode.CHECK_INCOMPLETE, 'The check did not finish in time');
  }
}

@Module({})
class ProbeAppModule {
  static forRoot(config: CoreConfig): DynamicModule {
    return {
      module: ProbeAppModule,
      imports: [PlatformModule.forService({ service: 'monitor', config })],
      controllers: [FailingController],
    };
  }
}

describe('bootstrapService', () => {
  it('runs a hybrid app whose message handlers answer errors with their stable code', async () => {
    const sut = await startTestService<CoreConfig & HttpPortConfig>({
      service: 'monitor',
      schema: z.object({ ...coreEnv, ...httpPortEnv(0) }),
      module: ProbeAppModule.forRoot,
    });
    try {
      await expect(sut.rpc.send(messages.monitor.status)).rejects.toMatchObject({
        code: ErrorCode.CHECK_INCOMPLETE,
        message: 'The check did not finish in time',
      });
      await expect(sut.rpc.send(messages.monitor.health)).resolves.toMatchObject({ status: 'up' });
      const probe = await fetch(`${await sut.app.getUrl()}/no-such-probe`);
      expect(probe.status).toBe(404);
      expect(await probe.json()).toMatchObject({ code: ErrorCode.NOT_FOUND });
    } finally {
      await sut.close();
    }
  });

  // Last in this file: once stopping, the process stays so.
  it('is not ready once it is stopping, and says why', async () => {
    const sut = await startTestService<CoreConfig & HttpPortConfig>({
      service: 'monitor',
      schema: z.object({ ...coreEnv, ...httpPortEnv(0) }),
      module: ProbeAppModule.forRoot,
    });
    try {
      expect((await fetch(`${await sut.app.getUrl()}/readyz`)).status).toBe(200);
      startDraining();
      const ready = await fetch(`${await sut.app.getUrl()}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: 'down',
        checks: { shutdown: { status: 'down', detail: 'stopping: finishing the work in flight' } },
      });
    } finally {
      await sut.close();
    }
  });
});
