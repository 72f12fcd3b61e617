import { Logger } from '@nestjs/common';
import { type Session } from 'net-ping';

/** The parts of raw-socket 1.8's Socket (net-ping's transport) that batching reaches into. */
interface RawSocketInternals {
  wrap: {
    recv(buffer: Buffer, callback: (buffer: Buffer, bytes: number, source: string) => void): void;
    send(
      buffer: Buffer,
      offset: number,
      length: number,
      address: string,
      callback: (bytes: number) => void,
    ): void;
    removeAllListeners(event: string): void;
    on(event: string, listener: () => void): void;
  };
  buffer: Buffer;
  requests: {
    buffer: Buffer;
    offset: number;
    length: number;
    address: string;
    beforeCallback?: () => void;
    afterCallback(this: unknown, error: Error | null, bytes: number): void;
  }[];
  sendPaused: boolean;
  pauseSend(): void;
  emit(event: string, ...args: unknown[]): boolean;
}

/** Packets read or written per readiness event. */
const BATCH = 64;
/** The socket has nothing to read, or no room to write, for now: try at the next event. */
const wouldBlock = /temporarily unavailable|would block|no buffer space/i;

/**
 * raw-socket reads one packet per "readable" event and writes one per "writable" event, so every
 * packet costs a whole turn of the event loop (on loopback a ping is three packets: the request
 * leaving, its copy coming back to the raw socket, the reply). Handling up to 64 per event takes
 * about a fifth off the monitor's CPU time per ping (bench/monitor). The same socket calls and
 * callbacks are used, in the same order; a non-blocking socket that has no more data (EAGAIN)
 * ends the batch. Skipped, with a warning, if raw-socket's internals are not what this expects.
 */
export function batchSocketIo(session: Session): boolean {
  const socket = session.getSocket() as unknown as Partial<RawSocketInternals>;
  if (
    typeof socket.wrap?.recv !== 'function' ||
    typeof socket.wrap.send !== 'function' ||
    !Buffer.isBuffer(socket.buffer) ||
    !Array.isArray(socket.requests) ||
    typeof socket.pauseSend !== 'function'
  ) {
    new Logger('Pinger').warn(
      'raw-socket is not the version expected: packets are read and written one per event',
    );
    return false;
  }
  const s = socket as RawSocketInternals;
  const deliver = (buffer: Buffer, bytes: number, source: string) =>
    s.emit('message', buffer.subarray(0, bytes), source);

  s.wrap.removeAllListeners('recvReady');
  s.wrap.on('recvReady', () => {
    for (let i = 0; i < BATCH; i++) {
      try {
        s.wrap.recv(s.buffer, deliver);
      } catch (error) {
        if (!wouldBlock.test((error as Error).message)) s.emit('error', error);
        return;
      }
    }
  });

  s.wrap.removeAllListeners('sendReady');
  s.wrap.on('sendReady', () => {
    for (let i = 0; i < BATCH && s.requests.length > 0; i++) {
      const req = s.requests.shift()!;
      try {
        req.beforeCallback?.();
        s.wrap.send(req.buffer, req.offset, req.length, req.address, (bytes) =>
          req.afterCallback.call(s, null, bytes),
        );
      } catch (error) {
        if (wouldBlock.test((error as Error).message)) {
          s.requests.unshift(req);
          return;
        }
        req.afterCallback.call(s, error as Error, 0);
      }
    }
    if (s.requests.length === 0 && !s.sendPaused) s.pauseSend();
  });
  return true;
}
