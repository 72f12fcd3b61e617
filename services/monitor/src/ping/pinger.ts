import { type AddressResult } from '@cm/contracts';
import { Logger } from '@nestjs/common';
import * as netPing from 'net-ping';
import { SocketLevel, SocketOption } from 'raw-socket';
import { batchSocketIo } from './batched-io';
import { guardStaleRequests } from './stale-requests';

export interface PingerOptions {
  /** ICMP identifier of the session: replies carrying another one belong to someone else. */
  sessionId: number;
  /** Wait for one reply before the request is sent again or given up. */
  timeoutMs: number;
  /** Requests sent again after a timeout. */
  retries: number;
  /** Least time between two sends, in milliseconds (fractions allowed), like fping's -i. */
  packetGapMs: number;
  /** Requests awaiting their reply at once; net-ping numbers them with 16 bits. */
  maxOutstanding: number;
  /** Socket receive buffer: a burst of replies beyond it is dropped by the kernel. */
  receiveBufferBytes?: number;
}

/** net-ping's own limit: request ids are 16-bit and one must stay free. */
export const MAX_OUTSTANDING_LIMIT = 65_534;

export class PingerClosedError extends Error {
  constructor() {
    super('The pinger was closed before the reply came');
    this.name = 'PingerClosedError';
  }
}

/** Called once with the address's answer (or its absence), or with PingerClosedError. */
export type PingCallback = (error: Error | null, result: AddressResult | null) => void;

interface Queued {
  address: string;
  done: PingCallback;
}

/**
 * The raw socket needs CAP_NET_RAW; without it the kernel says only "Operation not permitted",
 * which tells a person starting the monitor nothing about what to change.
 */
export function explainSocketError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (!/operation not permitted|EPERM|EACCES|permission denied/i.test(message)) {
    return error instanceof Error ? error : new Error(message);
  }
  return new Error(
    `The monitor cannot open a raw ICMP socket (${message}): it needs the NET_RAW capability. ` +
      'Run it as root, or for development grant it to node once: ' +
      'sudo setcap cap_net_raw+ep "$(readlink -f "$(command -v node)")". ' +
      'In a container add NET_RAW (docker-compose.yml and the Helm chart do).',
  );
}

/** Counts since the pinger was created, for metrics. */
export interface PingerCounters {
  sent: number;
  answered: number;
  unanswered: number;
}

/**
 * Pingers with a request queued or awaiting its reply, held here (a GC root through the module)
 * until every one of them is answered. raw-socket's native socket is a weak Nan::ObjectWrap that
 * it never Ref()s: its libuv poll handle keeps the event loop running but not the JS objects
 * alive, and net-ping references a session only from the timers of requests already sent. Between
 * two send batches of a sweep without a gap, when every request sent has been answered and the
 * rest still wait in raw-socket's send queue, nothing else reaches a pinger that only its callers'
 * promises refer to (a script's): a major collection then deletes the socket, whose destructor
 * closes it without a "close" event, so no request is sent, times out or fails, and the sweep
 * never ends (a process with nothing else to do exits).
 */
const busy = new Set<Pinger>();

/**
 * One long-lived net-ping session (one raw ICMP socket) for the whole process. Requests wait in
 * a queue and leave one per `packetGapMs` (a timer wakes at most every millisecond, so each wake
 * sends what is due, which keeps the average rate), never more than `maxOutstanding` at once.
 * Retries and the per-request timeout are net-ping's.
 */
export class Pinger {
  private readonly logger = new Logger(Pinger.name);
  private session: netPing.Session;
  private readonly queue: Queued[] = [];
  private head = 0;
  private outstanding = 0;
  private nextSendAt = 0;
  private wakeUp?: () => void;
  /** Callers of `room` waiting for the queue to be shorter than `below`. */
  private roomWaiters: { below: number; resolve: () => void }[] = [];
  private closed = false;
  readonly counters: PingerCounters = { sent: 0, answered: 0, unanswered: 0 };

  constructor(private readonly options: PingerOptions) {
    if (!Number.isInteger(options.sessionId) || options.sessionId < 1 || options.sessionId > 65_534) {
      throw new Error(`A ping session id must be 1 to 65534, not ${options.sessionId}`);
    }
    if (options.maxOutstanding < 1 || options.maxOutstanding > MAX_OUTSTANDING_LIMIT) {
      throw new Error(`At most ${MAX_OUTSTANDING_LIMIT} requests may be outstanding`);
    }
    this.session = this.openSession();
  }

  /**
   * The raw socket, set up for sweeps. raw-socket closes it on a socket error; net-ping then
   * answers every request in flight with "Socket closed". A fresh session with the same id takes
   * over, and those requests go out again (see send) rather than being counted as silence.
   */
  private openSession(): netPing.Session {
    let session: netPing.Session;
    try {
      session = netPing.createSession({
        sessionId: this.options.sessionId,
        timeout: this.options.timeoutMs,
        retries: this.options.retries,
      });
    } catch (error) {
      throw explainSocketError(error);
    }
    // Replies come back at the rate requests leave; a larger buffer absorbs a busy event loop.
    session
      .getSocket()
      .setOption(SocketLevel.SOL_SOCKET, SocketOption.SO_RCVBUF, this.options.receiveBufferBytes ?? 4 << 20);
    if (!guardStaleRequests(session, batchSocketIo(session))) {
      this.logger.warn('net-ping is not the version expected: a late reply may leave a ping unanswered');
    }
    session.on('error', (error) => this.logger.error(`Ping socket error: ${String(error)}`));
    session.on('close', () => {
      if (this.closed || session !== this.session) return;
      this.logger.warn('The ping socket closed; opening a new one');
      this.session = this.openSession();
    });
    return session;
  }

  get sessionId(): number {
    return this.options.sessionId;
  }

  /** Requests sent and not yet answered or timed out. */
  get inFlight(): number {
    return this.outstanding;
  }

  /** Requests waiting to be sent. */
  get queued(): number {
    return this.queue.length - this.head;
  }

  /**
   * Undefined while fewer than `below` requests wait to be sent (or once closed); otherwise a
   * promise that resolves when that is so. Requests leave the queue no faster than the packet
   * gap allows, and each holds memory while it waits: a sweep keeps the queue short this way.
   */
  room(below: number): Promise<void> | undefined {
    if (this.closed || this.queued < below) return undefined;
    return new Promise((resolve) => this.roomWaiters.push({ below, resolve }));
  }

  /** Resolves with the address's answer (or its absence); rejects only when the pinger closes. */
  ping(address: string): Promise<AddressResult> {
    return new Promise((resolve, reject) =>
      this.pingWith(address, (error, result) => (error ? reject(error) : resolve(result!))),
    );
  }

  /**
   * `ping` with a callback, always called later, never from within this call. A sweep holds
   * thousands of requests at once: a callback is one closure each where a promise, its resolving
   * functions and the async functions awaiting it were several.
   */
  pingWith(address: string, done: PingCallback): void {
    if (this.closed) {
      process.nextTick(done, new PingerClosedError(), null);
      return;
    }
    // After an idle spell the schedule restarts now, so no burst makes up for the pause. (While
    // requests wait, a late timer's arrears are kept: that is what holds the average rate.)
    if (this.head === this.queue.length) this.nextSendAt = Math.max(this.nextSendAt, performance.now());
    busy.add(this);
    this.queue.push({ address, done });
    this.pump();
  }

  /** Stops sending; what is queued or awaiting a reply fails with PingerClosedError. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    busy.delete(this);
    this.wakeUp?.();
    const waiting = this.queue.splice(this.head);
    this.head = 0;
    this.queue.length = 0;
    for (const q of waiting) process.nextTick(q.done, new PingerClosedError(), null);
    this.wakeRoomWaiters();
    // net-ping answers every request in flight with an error, which rejects it (see send).
    this.session.close();
  }

  private pump(): void {
    if (this.wakeUp || this.closed) return;
    const gap = this.options.packetGapMs;
    let now = performance.now();
    let sentThisTurn = 0;
    while (this.head < this.queue.length && this.outstanding < this.options.maxOutstanding) {
      if (this.nextSendAt > now) {
        now = performance.now();
        if (this.nextSendAt > now) break;
      }
      this.send(this.queue[this.head++]);
      this.nextSendAt += gap;
      // Without a gap, still let replies in between chunks.
      if (gap === 0 && ++sentThisTurn >= 256) break;
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.wakeRoomWaiters();
    if (this.head < this.queue.length && this.outstanding < this.options.maxOutstanding) {
      this.scheduleWake(Math.max(0, this.nextSendAt - performance.now()));
    }
    // Otherwise a reply (or timeout) frees a slot and pumps again.
  }

  private wakeRoomWaiters(): void {
    if (this.roomWaiters.length === 0) return;
    const waiting = this.roomWaiters;
    this.roomWaiters = [];
    for (const waiter of waiting) {
      if (this.closed || this.queued < waiter.below) waiter.resolve();
      else this.roomWaiters.push(waiter);
    }
  }

  /** Pumps again after `ms`; `wakeUp` cancels the wait (and is cleared when it fires). */
  private scheduleWake(ms: number): void {
    const wake = () => {
      this.wakeUp = undefined;
      this.pump();
    };
    if (ms === 0) {
      const immediate = setImmediate(wake);
      this.wakeUp = () => {
        clearImmediate(immediate);
        this.wakeUp = undefined;
      };
    } else {
      const timer = setTimeout(wake, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
      };
    }
  }

  private send(q: Queued): void {
    this.outstanding++;
    this.counters.sent++;
    const started = performance.now();
    this.session.pingHost(q.address, (error) => {
      this.outstanding--;
      if (this.closed) {
        q.done(new PingerClosedError(), null);
        return;
      }
      if (error && /socket (forcibly )?closed/i.test(error.message)) {
        this.counters.sent--;
        this.queue.splice(this.head, 0, q);
        this.pump();
        return;
      }
      let result: AddressResult;
      if (error) {
        this.counters.unanswered++;
        result = { address: q.address, alive: false, rttMs: null };
      } else {
        this.counters.answered++;
        // From our call to the reply (net-ping's own times are whole milliseconds).
        const rttMs = Math.round((performance.now() - started) * 1000) / 1000;
        result = { address: q.address, alive: true, rttMs };
      }
      if (this.head < this.queue.length) this.pump();
      else if (this.outstanding === 0) busy.delete(this);
      // Last, so that a callback that throws leaves the pinger's own bookkeeping done.
      q.done(null, result);
    });
  }
}
