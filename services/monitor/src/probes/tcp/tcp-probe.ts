import { connect } from 'node:net';
import { Injectable } from '@nestjs/common';
import { type DeviceProbe, type ProbeRequest, type ProbeResult } from '../probe';

type TcpRequest = Parameters<DeviceProbe<'tcp'>['probe']>[0];

/**
 * A TCP connect: the device answers when it accepts the connection on the port (a control port
 * whose protocol is not public, such as Crestron's 41794). Nothing is sent; the connection is
 * closed at once.
 */
@Injectable()
export class TcpProbe implements DeviceProbe<'tcp'> {
  readonly type = 'tcp';

  probe(request: TcpRequest): Promise<ProbeResult> {
    return connectOnce(request);
  }
}

function connectOnce({ address, port, timeoutMs, signal }: ProbeRequest): Promise<ProbeResult> {
  const cancelled: ProbeResult = { outcome: 'unreachable', findings: [], detail: 'The probe was cancelled' };
  if (signal?.aborted) return Promise.resolve(cancelled);
  const started = performance.now();
  return new Promise<ProbeResult>((resolve) => {
    const socket = connect({ host: address, port });
    const finish = (result: ProbeResult) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      resolve(result);
    };
    const unreachable = (detail: string) => finish({ outcome: 'unreachable', findings: [], detail });
    const onAbort = () => finish(cancelled);
    const timer = setTimeout(
      () => unreachable(`No connection on port ${port} within ${formatSeconds(timeoutMs)}`),
      timeoutMs,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () =>
      finish({ outcome: 'answered', findings: [], durationMs: Math.round(performance.now() - started) }),
    );
    // `on`, not `once`: an error after the result is in must not go unhandled.
    socket.on('error', (error: NodeJS.ErrnoException) => unreachable(describeError(error, port)));
  });
}

function describeError(error: NodeJS.ErrnoException, port: number): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `Connection refused on port ${port}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'No route to the device';
    case 'ETIMEDOUT':
      return `No connection on port ${port}`;
    default:
      return `Connection to port ${port} failed: ${error.code ?? error.message}`.slice(0, 300);
  }
}

const formatSeconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
