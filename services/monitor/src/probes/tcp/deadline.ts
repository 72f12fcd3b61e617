import type { ProbeRequest, ProbeResult } from '../probe';
import { silence, stopped } from './connection-failure';

export interface Ending {
  /** Ends the probe with this result (the first one given wins) and closes its connection. */
  finish(result: ProbeResult): void;
  readonly finished: boolean;
}

/**
 * The end of one probe: its result, given once, whether the device, the timeout or the monitor's
 * signal comes first. `close` releases the connection on every one of those ways.
 */
export function withDeadline(
  { timeoutMs, signal }: Pick<ProbeRequest, 'timeoutMs' | 'signal'>,
  resolve: (result: ProbeResult) => void,
  close: () => void,
  atTimeout: () => ProbeResult = () => silence(timeoutMs),
): Ending {
  let finished = false;
  const finish = (result: ProbeResult) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    close();
    resolve(result);
  };
  const timer = setTimeout(() => finish(atTimeout()), timeoutMs);
  const onAbort = () => finish(stopped());
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    finish,
    get finished() {
      return finished;
    },
  };
}
