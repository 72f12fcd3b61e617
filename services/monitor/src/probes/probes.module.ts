import { Module, type Type } from '@nestjs/common';
import { type DeviceProbe } from './probe';
import { ProbeRegistry } from './probe-registry';
import { TcpProbe } from './tcp/tcp-probe';

/**
 * Every protocol client the monitor probes with: each is a Nest provider implementing
 * `DeviceProbe`, and adding one is one line here.
 */
export const deviceProbes: Type<DeviceProbe>[] = [TcpProbe];

@Module({
  providers: [
    ...deviceProbes,
    {
      provide: ProbeRegistry,
      inject: deviceProbes,
      useFactory: (...probes: DeviceProbe[]) => new ProbeRegistry(probes),
    },
  ],
  exports: [ProbeRegistry],
})
export class ProbesModule {}
