import { connect, type Socket } from 'node:net';

/**
 * Why a PJLink conversation stopped before its end. `timeout`, `closed` and `aborted` may come
 * after some answers, which the probe keeps; `unreachable` is a connection that never opened.
 */
export type PjlinkStopKind = 'unreachable' | 'timeout' | 'closed' | 'aborted' | 'garbled' | 'auth';

export class PjlinkStopped extends Error {
  constructor(
    readonly kind: PjlinkStopKind,
    /** Plain words for the reading's `detail`. */
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * The specification's longest answer is 136 bytes with its terminator; a line much longer than
 * that is not PJLink, and stopping there bounds what a wrong device can make the monitor hold.
 */
const LONGEST_LINE = 512;
const CR = 0x0d;

/** Answers end with CR; a packet may hold part of one, or several. */
export class LineSplitter {
  private pending = Buffer.alloc(0);

  /** The lines `chunk` completes, without empty ones (a stray LF after CR is dropped too). */
  push(chunk: Buffer): string[] {
    let data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    const lines: string[] = [];
    for (let end = data.indexOf(CR); end >= 0; end = data.indexOf(CR)) {
      const line = data.subarray(0, end).toString('utf8').replace(/^\n/, '');
      if (line.length > 0) lines.push(line);
      data = data.subarray(end + 1);
    }
    if (data.length > LONGEST_LINE)
      throw new PjlinkStopped(
        'garbled',
        `An answer longer than ${LONGEST_LINE} bytes without an end: not PJLink`,
      );
    this.pending = Buffer.from(data);
    return lines;
  }
}

export interface PjlinkSessionOptions {
  address: string;
  port: number;
  /** The whole conversation, from the connection on. */
  timeoutMs: number;
  /** The longest wait for one answer (and for the connection to open). */
  answerTimeoutMs: number;
  signal?: AbortSignal;
}

/**
 * One TCP connection to a PJLink device, read line by line, each wait bounded by the answer
 * timeout and by what is left of the conversation's. Every failure is a `PjlinkStopped`.
 */
export class PjlinkSession {
  private readonly socket: Socket;
  private readonly splitter = new LineSplitter();
  private readonly lines: string[] = [];
  private readonly deadline: number;
  private connected = false;
  private greeted = false;
  private stopped: PjlinkStopped | undefined;
  /** The pending wait's re-check, run on every event of the socket. */
  private poke: (() => void) | undefined;
  private readonly onAbort = () =>
    this.stop(new PjlinkStopped('aborted', 'Probe stopped before the device answered'));

  constructor(private readonly options: PjlinkSessionOptions) {
    this.deadline = performance.now() + options.timeoutMs;
    this.socket = connect({ host: options.address, port: options.port });
    this.socket.setNoDelay(true);
    this.socket.on('connect', () => {
      this.connected = true;
      this.poke?.();
    });
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (error: NodeJS.ErrnoException) => this.stop(this.socketError(error)));
    this.socket.on('close', () => this.stop(this.closedEarly()));
    if (options.signal?.aborted) this.onAbort();
    else options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Resolves when the connection is open. */
  opened(): Promise<void> {
    return this.wait(() => (this.connected ? true : undefined)).then(() => undefined);
  }

  /** The next line the device sends. Lines already received come first, even after a close. */
  nextLine(): Promise<string> {
    return this.wait(() => this.lines.shift());
  }

  send(text: string): void {
    if (!this.stopped) this.socket.write(text);
  }

  /** Always called: the socket goes, whatever state it is in, and no timer stays. */
  close(): void {
    this.options.signal?.removeEventListener('abort', this.onAbort);
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    try {
      const lines = this.splitter.push(chunk);
      this.greeted ||= lines.length > 0;
      this.lines.push(...lines);
    } catch (error) {
      this.stop(error as PjlinkStopped);
    }
    this.poke?.();
  }

  /** The first reason to stop wins: a close after a refusal must not hide the refusal. */
  private stop(reason: PjlinkStopped): void {
    this.stopped ??= reason;
    this.poke?.();
  }

  private wait<T>(take: () => T | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const left = this.deadline - performance.now();
      const limit = Math.max(0, Math.min(this.options.answerTimeoutMs, left));
      const limitMs =
        left < this.options.answerTimeoutMs ? this.options.timeoutMs : this.options.answerTimeoutMs;
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.poke = undefined;
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new PjlinkStopped('timeout', `No answer within ${seconds(limitMs)}`))),
        limit,
      );
      const check = () => {
        const value = take();
        if (value !== undefined) finish(() => resolve(value));
        else if (this.stopped) finish(() => reject(this.stopped));
      };
      this.poke = check;
      check();
    });
  }

  private closedEarly(): PjlinkStopped {
    if (this.greeted)
      return new PjlinkStopped('closed', 'The device closed the connection without answering');
    // Devices serve one controller: a connection closed before the greeting is most often that.
    return new PjlinkStopped(
      'closed',
      'The device closed the connection before greeting (another controller may be connected)',
    );
  }

  private socketError(error: NodeJS.ErrnoException): PjlinkStopped {
    const { port, address } = this.options;
    if (this.connected)
      return new PjlinkStopped('closed', `The connection broke (${error.code ?? error.message})`);
    switch (error.code) {
      case 'ECONNREFUSED':
        return new PjlinkStopped('unreachable', `Connection refused on port ${port}`);
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return new PjlinkStopped('unreachable', `No route to ${address}`);
      case 'ETIMEDOUT':
        return new PjlinkStopped('unreachable', `No answer within ${seconds(this.options.answerTimeoutMs)}`);
      default:
        return new PjlinkStopped(
          'unreachable',
          `Could not connect to port ${port} (${error.code ?? error.message})`,
        );
    }
  }
}

/** "5 s", "1.5 s". */
function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
