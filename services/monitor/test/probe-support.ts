import type { ProbeSettings } from '@cm/contracts';
import { startTcpSimulator } from '@cm/simulators';
import type { ProbeRequest } from '../src/probes/probe';

/** Simulated devices of the probe tests listen here; each test's servers take a free port. */
export const SIMULATOR_HOST = '127.0.0.36';

/** A port on the simulators' address that nothing listens on (one that did a moment ago). */
export async function closedPort(): Promise<number> {
  const listener = await startTcpSimulator({ host: SIMULATOR_HOST });
  await listener.close();
  return listener.port;
}

/** A probe request to a simulator, with settings and secrets as the test gives them. */
export function requestTo<S extends ProbeSettings>(
  device: { host: string; port: number },
  settings: S,
  over: Partial<Omit<ProbeRequest<S>, 'settings'>> = {},
): ProbeRequest<S> {
  return { address: device.host, port: device.port, settings, secrets: {}, timeoutMs: 5000, ...over };
}
