import { type ProbeType } from '@cm/contracts';
import { type DeviceProbe } from './probe';

/** The protocol client of each probe type this build has; a type without one is not probed. */
export class ProbeRegistry {
  private readonly probes = new Map<ProbeType, DeviceProbe>();

  constructor(probes: readonly DeviceProbe[] = []) {
    for (const probe of probes) this.register(probe);
  }

  /** Adds a protocol client, or replaces the one of its type. */
  register(probe: DeviceProbe): void {
    this.probes.set(probe.type, probe);
  }

  get<T extends ProbeType>(type: T): DeviceProbe<T> | undefined {
    return this.probes.get(type) as DeviceProbe<T> | undefined;
  }

  get types(): ProbeType[] {
    return [...this.probes.keys()];
  }
}
