import { type Session } from 'net-ping';

/** The parts of net-ping 1.2's Session that the guard wraps. */
export interface NetPingRequest {
  id: number;
  retries: number;
  timer?: NodeJS.Timeout;
  callback: (error: Error | null, target: string) => void;
}
export interface NetPingInternals {
  reqs: Record<number, NetPingRequest | undefined>;
  onSocketSend(req: NetPingRequest, error: Error | null, bytes: number): void;
  onTimeout(req: NetPingRequest): void;
}

/**
 * net-ping sends a retry through the socket's queue. When the reply to the first attempt arrives
 * while that retry still waits there (a busy sweep), the request is answered and removed, yet the
 * retry, once sent, arms a timer for it; its timeout then removes whatever request holds the same
 * 16-bit id by then (ids wrap after 65535 requests) and answers the old one a second time. The
 * request that loses its entry never answers, so its sweep share waits for the sweep timeout and
 * its slot in the pinger is never freed. Requests no longer registered are ignored here.
 *
 * `readWaiting`, when given, reads the replies the socket already holds before a request is given
 * up. Timers run before I/O in each turn of the event loop: when a busy process (a long sweep's
 * work, a collection, a loaded machine) comes back to the loop after the timeout, the request's
 * timer fires ahead of the reply that came back in time and waits unread in the socket, and a
 * device that answered would be called silent.
 */
export function guardStaleRequests(session: Session, readWaiting?: () => void): boolean {
  const s = session as unknown as Partial<NetPingInternals>;
  if (typeof s.onSocketSend !== 'function' || typeof s.onTimeout !== 'function' || !s.reqs) return false;
  const { onSocketSend, onTimeout } = s as NetPingInternals;
  const live = (req: NetPingRequest) => s.reqs![req.id] === req;
  s.onSocketSend = function (req, error, bytes) {
    if (live(req)) onSocketSend.call(this, req, error, bytes);
  };
  s.onTimeout = function (req) {
    if (live(req)) readWaiting?.();
    if (live(req)) onTimeout.call(this, req);
  };
  return true;
}
