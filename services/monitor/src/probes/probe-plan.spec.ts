import { type Ipv4Network, parseNetworks, type ProbeTarget } from '@cm/contracts';
import { describeSkipped, OUTSIDE_ALLOWED_NETWORKS, planProbes } from './probe-plan';

const allowed = (parseNetworks('10.20.0.0/16') as { networks: Ipv4Network[] }).networks;
let n = 0;
const target = (address: string, probe: ProbeTarget['probe']): ProbeTarget => ({
  equipmentId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  address,
  probe,
  secrets: {},
});

describe(planProbes.name, () => {
  const tcpOnly = (type: string) => type === 'tcp';

  it('probes a device on its own port or the protocol’s, at its interval or every 5 minutes', () => {
    const { plans } = planProbes(
      [
        target('10.20.1.5', { type: 'tcp', port: 41794, intervalSeconds: 60 }),
        target('10.20.1.6', { type: 'tcp' }),
        target('10.20.1.7', { type: 'http', https: true, path: '/', certificateWarningDays: 21 }),
      ],
      allowed,
      () => true,
    );

    expect(plans.map((p) => [p.device, p.port, p.intervalMs, p.refused])).toEqual([
      ['10.20.1.5', 41794, 60_000, undefined],
      ['10.20.1.6', 80, 300_000, undefined],
      ['10.20.1.7', 443, 300_000, undefined],
    ]);
  });

  it('reads a device outside the allowed networks as unreachable rather than connecting to it', () => {
    const { plans } = planProbes([target('192.168.1.5', { type: 'tcp' })], allowed, tcpOnly);

    expect(plans.map((p) => p.refused)).toEqual([OUTSIDE_ALLOWED_NETWORKS]);
  });

  it('never deep-probes a range, leaves ICMP to the sweep, and counts types this build cannot probe', () => {
    const { plans, skipped } = planProbes(
      [
        target('10.20.1.1-20', { type: 'tcp' }),
        target('10.20.1.30', { type: 'icmp' }),
        target('10.20.1.31', { type: 'pjlink' }),
        target('10.20.1.32', { type: 'pjlink' }),
      ],
      allowed,
      tcpOnly,
    );

    expect(plans).toEqual([]);
    expect(describeSkipped(skipped)).toBe(
      'Probe targets not probed: 2 pjlink (this build has no pjlink probe), 1 with a range or no single address',
    );
  });
});
