import { Module } from '@nestjs/common';
import { ExtronProbe } from './extron/extron.probe';
import { HttpProbe } from './http/http.probe';
import { PjlinkProbe } from './pjlink/pjlink.probe';
import { type DeviceProbe } from './probe';
import { ProbeRegistry } from './probe-registry';
import { QsysProbe } from './qsys/qsys.probe';
import { SnmpProbe } from './snmp/snmp.probe';
import { TcpProbe } from './tcp/tcp.probe';

/** Every protocol client the monitor probes with: adding one is one line here. */
export const deviceProbes = (): DeviceProbe[] => [
  new PjlinkProbe(),
  new SnmpProbe(),
  new QsysProbe(),
  new ExtronProbe(),
  new TcpProbe(),
  new HttpProbe(),
];

@Module({
  providers: [{ provide: ProbeRegistry, useFactory: () => new ProbeRegistry(deviceProbes()) }],
  exports: [ProbeRegistry],
})
export class ProbesModule {}
