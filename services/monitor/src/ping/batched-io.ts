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
/** Packets read at most by one readWaiting() call: a bound, should packets keep coming. */
const WAITING_BOUND = 4096;
/** The socket has nothing to read, or no room to write, for now: try at the next event. */
const wouldBlock = /temporarily unavailable|would block|no buffer space/i;

/**
 * raw-socket reads one packet per "readable" event and writes one per "writable" event, so every
 * packet costs a whole turn of the event loop (on loopback a ping is three packets: the request
 * leaving, its copy coming back to the raw socket, the reply). Handling up to 64 per event takes
 * about a fifth off the monitor's CPU time per ping (bench/monitor). The same socket calls and
 * callbacks are used, in the same order; a non-blocking socket that has no more data (EAGAIN)
 * ends the batch. Skipped, with a warning, if raw-socket's internals are not what this expects.
 *
 * Answers a function that reads at once every packet the socket holds (up to a bound), as readable
 * events would: a timeout calls it before it gives a request up (see stale-requests.ts).
 */
export function batchSocketIo(session: Session): (() => void) | undefined {
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
    return undefined;
  }
  const s = socket as RawSocketInternals;
  const deliver = (buffer: Buffer, bytes: number, source: string) =>
    s.emit('message', buffer.subarray(0, bytes), source);

  /** Reads up to `most` packets; false once the socket has no more for now. */
  const read = (most: number) => {
    for (let i = 0; i < most; i++) {
      try {
        s.wrap.recv(s.buffer, deliver);
      } catch (error) {
        if (!wouldBlock.test((error as Error).message)) s.emit('error', error);
        return;
      }
    }
  };
  s.wrap.removeAllListeners('recvReady');
  s.wrap.on('recvReady', () => read(BATCH));

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
  // Once per turn of the event loop: the timeouts of a whole sweep may fire together.
  let readThisTurn = false;
  return () => {
    if (readThisTurn) return;
    readThisTurn = true;
    setImmediate(() => (readThisTurn = false));
    read(WAITING_BOUND);
  };
}
