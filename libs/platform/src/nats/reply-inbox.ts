import { createInbox, ErrorCode, Events, type Msg, type MsgHdrs, type NatsConnection, NatsError } from 'nats';

interface Waiting {
  subject: string;
  resolve: (msg: Msg) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface InboxRequestOptions {
  /** Milliseconds to wait for the reply; then a NatsError TIMEOUT. */
  timeout: number;
  headers?: MsgHdrs;
}

/**
 * Request/reply on one connection with every reply arriving on one subscription, as nats.js's own
 * `request` does, and failing the same ways (NatsError TIMEOUT, also for what is in flight when the
 * connection closes, NO_RESPONDERS, PERMISSIONS_VIOLATION), without what that costs on every request: nats.js "cancels" each request it
 * completes with a NatsError made for it (an Error with its stack, 2–3 % of the gateway's CPU under
 * the API's load), and adds a deferred, a timer promise and a race. Here a request is a pending
 * entry and a timer.
 */
export class ReplyInbox {
  private readonly prefix: string;
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;

  constructor(
    readonly connection: NatsConnection,
    inboxPrefix?: string,
  ) {
    // The subject the process's inboxes are allowed under (natsClientOptions' inboxPrefix).
    this.prefix = `${createInbox(inboxPrefix)}.`;
    connection.subscribe(`${this.prefix}*`, { callback: (error, msg) => this.settle(error, msg) });
    void this.watchPermissions();
    // As nats.js fails the requests in flight when its connection closes: a timeout.
    void connection.closed().then(() => this.failAll(NatsError.errorForCode(ErrorCode.Timeout)));
  }

  request(subject: string, data: Uint8Array, { timeout, headers }: InboxRequestOptions): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      const token = (++this.next).toString(36);
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(NatsError.errorForCode(ErrorCode.Timeout));
      }, timeout);
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.connection.publish(subject, data, { reply: this.prefix + token, headers });
      } catch (error) {
        this.take(token);
        reject(error);
      }
    });
  }

  /** The entry of `token`, no longer waited for. */
  private take(token: string): Waiting | undefined {
    const waiting = this.waiting.get(token);
    if (!waiting) return undefined;
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    return waiting;
  }

  private settle(error: NatsError | null, msg: Msg): void {
    // The subscription itself failed (NATS refused it): no reply can arrive.
    if (error) return this.failAll(error);
    const waiting = this.take(msg.subject.slice(this.prefix.length));
    if (!waiting) return;
    // NATS answers a request that no subscriber received with an empty message, status 503.
    if (msg.data.length === 0 && msg.headers?.code === 503)
      waiting.reject(NatsError.errorForCode(ErrorCode.NoResponders));
    else waiting.resolve(msg);
  }

  /** A request whose subject NATS refuses this connection fails at once, as with nats.js's request. */
  private async watchPermissions(): Promise<void> {
    for await (const status of this.connection.status()) {
      const refused = (status as { permissionContext?: { operation: string; subject: string } })
        .permissionContext;
      if (status.type !== Events.Error || refused?.operation !== 'publish') continue;
      for (const [token, waiting] of this.waiting) {
        if (waiting.subject !== refused.subject) continue;
        this.take(token);
        waiting.reject(NatsError.errorForCode(ErrorCode.PermissionsViolation));
      }
    }
  }

  private failAll(error: unknown): void {
    for (const token of [...this.waiting.keys()]) this.take(token)?.reject(error);
  }
}
