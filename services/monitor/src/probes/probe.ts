import type { ProbeReading, ProbeSettings, ProbeTarget, ProbeType } from '@cm/contracts';

/** One probe of one device: where, with what settings, and how long it may take in all. */
export interface ProbeRequest<S extends ProbeSettings = ProbeSettings> {
  address: string;
  /** The settings' port, else the protocol's default. */
  port: number;
  settings: S;
  secrets: ProbeTarget['secrets'];
  /** The whole probe, connection to last answer; the probe gives up and answers `unreachable`. */
  timeoutMs: number;
  /** Aborted when the monitor stops or hands the device to another replica. */
  signal?: AbortSignal;
}

/** What a probe reads; the scheduler adds the equipment, the type and the time. */
export type ProbeResult = Omit<ProbeReading, 'equipmentId' | 'probeType' | 'checkedAt'>;

/**
 * A protocol client. It never throws for anything the device or the network does: a refused
 * connection, a timeout, a wrong password or a garbled answer is a result with its outcome.
 */
export interface DeviceProbe<T extends ProbeType = ProbeType> {
  readonly type: T;
  probe(request: ProbeRequest<Extract<ProbeSettings, { type: T }>>): Promise<ProbeResult>;
}
