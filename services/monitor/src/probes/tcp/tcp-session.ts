import { Socket } from 'node:net';
import type { ProbeRequest, ProbeResult } from '../probe';
import { connectionFailure, protocolError, silence, stopped } from './connection-failure';
import { withDeadline } from './deadline';

/** What a protocol's handlers may do while the connection is open. */
export interface TcpSession {
  write(data: string | Buffer): void;
  /** Ends the probe with this result and closes the connection; later calls do nothing. */
  finish(result: ProbeResult): void;
  /** Milliseconds since the probe began connecting. */
  elapsedMs(): number;
}

export interface TcpSessionHandlers {
  onConnect?(session: TcpSession): void;
  onData?(chunk: Buffer, session: TcpSession): void;
  /** The device closed the connection before the handlers finished; a protocol error unless answered. */
  onEnd?(session: TcpSession): ProbeResult | undefined;
  /** The time is up; "No answer within …" unless answered (a banner read, no more to come). */
  onTimeout?(session: TcpSession): ProbeResult | undefined;
}

/**
 * One TCP conversation with a device, bounded by the request's timeout and signal. It never
 * rejects: a network error, a handler's exception, a timeout or an abort each end it with a
 * result, and the socket is destroyed whichever way it ends.
 */
export function runTcpSession(request: ProbeRequest, handlers: TcpSessionHandlers): Promise<ProbeResult> {
  const { address, port, timeoutMs, signal } = request;
  if (signal?.aborted) return Promise.resolve(stopped());

  return new Promise((resolve) => {
    const started = performance.now();
    const socket = new Socket();
    const elapsedMs = () => performance.now() - started;
    const ending = withDeadline(
      request,
      resolve,
      () => socket.destroy(),
      () => {
        try {
          return handlers.onTimeout?.(session) ?? silence(timeoutMs);
        } catch (error) {
          return unreadable(error, elapsedMs());
        }
      },
    );
    const session: TcpSession = {
      write: (data) => {
        if (!ending.finished) socket.write(data);
      },
      finish: ending.finish,
      elapsedMs,
    };
    // A handler that throws on a garbled answer ends the probe; it never escapes to the caller.
    const guarded =
      <A extends unknown[]>(handler: (...args: A) => void) =>
      (...args: A) => {
        if (ending.finished) return;
        try {
          handler(...args);
        } catch (error) {
          session.finish(unreadable(error, elapsedMs()));
        }
      };

    socket.setNoDelay(true);
    socket.once(
      'connect',
      guarded(() => handlers.onConnect?.(session)),
    );
    socket.on(
      'data',
      guarded((chunk: Buffer) => handlers.onData?.(chunk, session)),
    );
    socket.once(
      'end',
      guarded(() =>
        session.finish(
          handlers.onEnd?.(session) ?? protocolError('The device closed the connection', session.elapsedMs()),
        ),
      ),
    );
    socket.on('error', (error) => session.finish(connectionFailure(error, address, port)));
    try {
      socket.connect({ host: address, port });
    } catch (error) {
      // A port or address Node refuses before any packet leaves.
      session.finish(connectionFailure(error, address, port));
    }
  });
}

function unreadable(error: unknown, durationMs: number): ProbeResult {
  return protocolError(`Unreadable answer: ${(error as Error).message}`, durationMs);
}
