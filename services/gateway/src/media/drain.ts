import { MAX_UPLOAD_BYTES } from '@cm/contracts';
import type { Request } from 'express';

/**
 * Reads and discards the rest of a request so its client can read our answer; gives up past
 * twice the limit, or when the client sends nothing for `idleMs`.
 */
export function drain(req: Request, idleMs: number, capBytes = 2 * MAX_UPLOAD_BYTES): Promise<void> {
  return new Promise((resolve) => {
    if (req.readableEnded || req.destroyed) return resolve();
    let seen = 0;
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) giveUp();
      else timer.refresh();
    };
    // Once our answer is sent, node stops tracking the request: a client that then drops its
    // connection ends neither the request nor closes it, only the socket. And nothing may re-arm
    // the timer after the end, or it would hold the process for the idle time.
    const socket = req.socket;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      socket?.off('close', done);
      resolve();
    };
    const giveUp = () => {
      req.destroy();
      done();
    };
    const timer = setTimeout(giveUp, idleMs);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    socket?.once('close', done);
    req.resume();
  });
}
