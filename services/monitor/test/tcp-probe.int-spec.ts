import { eventually } from '@cm/platform/testing';
import { startTcpSimulator, type TcpSimulator } from '@cm/simulators';
import { ExtronProbe } from '../src/probes/extron/extron.probe';
import { HttpProbe } from '../src/probes/http/http.probe';
import type { DeviceProbe, ProbeRequest } from '../src/probes/probe';
import { QsysProbe } from '../src/probes/qsys/qsys.probe';
import { TcpProbe } from '../src/probes/tcp/tcp.probe';
import { SIMULATOR_HOST, closedPort, requestTo } from './probe-support';

describe(TcpProbe.name, () => {
  const sut = new TcpProbe();
  const settings = { type: 'tcp' as const };
  let device: TcpSimulator;

  beforeEach(async () => {
    device = await startTcpSimulator({ host: SIMULATOR_HOST });
  });
  afterEach(() => device.close());

  it('finds an open port answered, with the time it took, and closes its connection again', async () => {
    const reading = await sut.probe(requestTo(device, settings));

    expect(reading).toEqual({ outcome: 'answered', findings: [], durationMs: expect.any(Number) });
    expect(device.accepted).toBe(1);
    // A device that takes one connection at a time must get it back.
    await eventually(() => expect(device.openConnections).toBe(0));
  });

  it('does not connect at all once the monitor has stopped it', async () => {
    const controller = new AbortController();
    controller.abort();

    const reading = await sut.probe(requestTo(device, settings, { signal: controller.signal }));

    expect(reading).toEqual({
      outcome: 'unreachable',
      findings: [],
      detail: 'Probe stopped before the device answered',
    });
    expect(device.accepted).toBe(0);
  });
});

describe('Each probe over TCP', () => {
  const http = { type: 'http', path: '/', certificateWarningDays: 21 } as const;
  const probes: { name: string; sut: DeviceProbe; settings: ProbeRequest['settings'] }[] = [
    { name: 'TCP', sut: new TcpProbe(), settings: { type: 'tcp' } },
    { name: 'Q-SYS', sut: new QsysProbe(), settings: { type: 'qsys' } },
    { name: 'Extron', sut: new ExtronProbe(), settings: { type: 'extron' } },
    { name: 'HTTP', sut: new HttpProbe(), settings: { ...http, https: false } },
    { name: 'HTTPS', sut: new HttpProbe(), settings: { ...http, https: true } },
  ];

  it.each(probes)(
    '$name says the connection was refused when nothing listens on the port',
    async ({ sut, settings }) => {
      const port = await closedPort();

      const reading = await sut.probe(requestTo({ host: SIMULATOR_HOST, port }, settings));

      expect(reading).toEqual({
        outcome: 'unreachable',
        findings: [],
        detail: `Connection refused on port ${port}`,
      });
    },
  );
});
