import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, type Socket } from 'node:net';

export interface Recorded {
  method: string;
  /** Path and query, decoded. */
  path: string;
  body: Record<string, unknown> | null;
  authorization: string | undefined;
}

/** A failure the next request gets instead of its answer. */
export type Fault =
  | { status: 401 | 429 | 500 | 503; retryAfter?: string }
  /** No answer at all, for 10 s (or until the fake stops): the caller's timeout must end it. */
  | { hang: true }
  /** The usual answer, once `until` settles (the test lets it go; resolved: at once). */
  | { until: Promise<void> };

export type Handler = (req: Recorded) => { status: number; body?: unknown };

/**
 * A loopback HTTP server for a fake service desk: it checks basic authentication, records each
 * request, answers the next `faults` first, everything with 500 while `outage` is set, and can be
 * stopped and started again on the same port (connections refused in between).
 */
export class FakeHttp {
  readonly requests: Recorded[] = [];
  readonly faults: Fault[] = [];
  outage = false;
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly handle: Handler,
    private readonly credentials: { username: string; secret: string },
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.serve(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening and drops open connections (a hang among them). */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: Recorded = {
        method: req.method!,
        path: decodeURIComponent(req.url!),
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null,
        authorization: req.headers.authorization,
      };
      this.requests.push(recorded);
      const fault = this.faults.shift();
      if (fault && 'hang' in fault) {
        setTimeout(() => res.destroy(), 10_000).unref();
        return;
      }
      if (fault && 'until' in fault) {
        void fault.until.then(() => this.answer(req, res, recorded, undefined));
        return;
      }
      this.answer(req, res, recorded, fault);
    });
  }

  private answer(
    req: IncomingMessage,
    res: ServerResponse,
    recorded: Recorded,
    fault: Exclude<Fault, { hang: true } | { until: Promise<void> }> | undefined,
  ): void {
    const expected = `Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.secret}`).toString('base64')}`;
    const answer =
      fault ??
      (this.outage ? { status: 500 } : req.headers.authorization !== expected ? { status: 401 } : null);
    if (answer) {
      const headers =
        'retryAfter' in answer && answer.retryAfter ? { 'retry-after': answer.retryAfter } : undefined;
      // A body a log must never show: what the service desk says about itself.
      res.writeHead(answer.status, headers).end('{"error":{"message":"internal detail: node sn-app-07"}}');
      return;
    }
    const { status, body } = this.handle(recorded);
    res
      .writeHead(status, { 'content-type': 'application/json' })
      .end(body === undefined ? '' : JSON.stringify(body));
  }
}
