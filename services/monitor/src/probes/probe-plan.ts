import {
  allowedAddressProblem,
  defaultProbePorts,
  type Ipv4Network,
  isAddressError,
  isInNetworks,
  parseAddressTarget,
  PROBE_INTERVAL_DEFAULT_SECONDS,
  PROBE_INTERVAL_MIN_SECONDS,
  type ProbeSettings,
  type ProbeTarget,
  type ProbeType,
} from '@cm/contracts';

/** The detail of the reading of a device the monitor may not reach. */
export const OUTSIDE_ALLOWED_NETWORKS = "Address outside the monitor's allowed networks";

/** One probe target as the scheduler runs it. */
export interface PlannedProbe {
  target: ProbeTarget;
  /** The device a probe connects to (its address): never two probes to it at once. */
  device: string;
  port: number;
  intervalMs: number;
  /**
   * Why it is answered `unreachable` without a connection: an address the monitor's allowlist
   * refuses (stored before the networks were narrowed, or by an inventory configured otherwise).
   */
  refused?: string;
}

/** Probe targets that are not probed, counted by why. */
export interface SkippedProbes {
  /** Types this build has no protocol client for, with their counts. */
  noProbe: Map<ProbeType, number>;
  /** Ranges and unreadable addresses: ranges are pinged, never deep-probed. */
  notOneAddress: number;
}

/** Turns inventory's probe targets into plans; ICMP is the ping sweep's, so it is left out silently. */
export function planProbes(
  targets: readonly ProbeTarget[],
  allowed: readonly Ipv4Network[],
  hasProbe: (type: ProbeType) => boolean,
): { plans: PlannedProbe[]; skipped: SkippedProbes } {
  const plans: PlannedProbe[] = [];
  const skipped: SkippedProbes = { noProbe: new Map(), notOneAddress: 0 };
  for (const target of targets) {
    const { type } = target.probe;
    if (type === 'icmp') continue;
    if (!hasProbe(type)) {
      skipped.noProbe.set(type, (skipped.noProbe.get(type) ?? 0) + 1);
      continue;
    }
    const parsed = parseAddressTarget(target.address);
    if (isAddressError(parsed) || parsed.addresses.length !== 1) {
      skipped.notOneAddress++;
      continue;
    }
    const address = parsed.addresses[0];
    const seconds = Math.max(
      target.probe.intervalSeconds ?? PROBE_INTERVAL_DEFAULT_SECONDS,
      PROBE_INTERVAL_MIN_SECONDS,
    );
    const plan: PlannedProbe = {
      target: { ...target, address },
      device: address,
      port: portOf(target.probe),
      intervalMs: seconds * 1000,
    };
    const problem = allowedAddressProblem(parsed, allowed);
    if (problem)
      plan.refused = isInNetworks(address, allowed) ? problem.slice(0, 300) : OUTSIDE_ALLOWED_NETWORKS;
    plans.push(plan);
  }
  return { plans, skipped };
}

/** The probe's own port, else its protocol's: HTTPS's is 443, where plain HTTP's is 80. */
function portOf(probe: Exclude<ProbeSettings, { type: 'icmp' }>): number {
  if (probe.port !== undefined) return probe.port;
  if (probe.type === 'http' && probe.https) return 443;
  return defaultProbePorts[probe.type];
}

/** A log line for what was skipped, or null when nothing was. */
export function describeSkipped({ noProbe, notOneAddress }: SkippedProbes): string | null {
  const parts = [...noProbe].map(([type, n]) => `${n} ${type} (this build has no ${type} probe)`);
  if (notOneAddress) parts.push(`${notOneAddress} with a range or no single address`);
  return parts.length ? `Probe targets not probed: ${parts.join(', ')}` : null;
}
