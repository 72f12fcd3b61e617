import type { ProbeResult } from '../probe';

/** "5 s", "2.5 s": how the reasons name a timeout. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(2))} s`;
}

export function unreachable(detail: string): ProbeResult {
  return { outcome: 'unreachable', findings: [], detail };
}

export function protocolError(detail: string, durationMs?: number): ProbeResult {
  return { outcome: 'protocol-error', findings: [], detail: detail.slice(0, 300), durationMs };
}

export function silence(timeoutMs: number): ProbeResult {
  return unreachable(`No answer within ${formatSeconds(timeoutMs)}`);
}

/** The monitor stopped or handed the device to another replica: the reading is discarded. */
export function stopped(): ProbeResult {
  return unreachable('Probe stopped before the device answered');
}

/** A socket or request error, in words an operator can act on ("Connection refused on port 1710"). */
export function connectionFailure(error: unknown, address: string, port: number): ProbeResult {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return unreachable(`Connection refused on port ${port}`);
    case 'ECONNRESET':
    case 'EPIPE':
      return unreachable(`Connection reset on port ${port}`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
      return unreachable(`No route to ${address}`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return unreachable(`Address ${address} not found`);
    case 'ETIMEDOUT':
      return unreachable(`Connection to port ${port} timed out`);
    default:
      return unreachable(`Connection to port ${port} failed${code ? ` (${code})` : ''}`);
  }
}
