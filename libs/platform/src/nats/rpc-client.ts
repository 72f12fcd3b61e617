import {
  describeZodError,
  ErrorCode,
  type MessageDef,
  type MessageReply,
  type MessageRequest,
  namespacedSubject,
  type NoticeDef,
} from '@cm/contracts';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { ErrorCode as NatsErrorCode, type NatsConnection, NatsError, type Subscription } from 'nats';
import { type Observable } from 'rxjs';
import { type z } from 'zod';
import { AppError, isErrorBody } from '../errors';
import { startActiveSpanLightly } from '../light-spans';
import { platformMetrics } from '../metrics/platform-metrics';
import { type NatsClientOptions, natsConnectionSettings } from './connection-options';
import { NamespacedClientNats } from './namespaced-transport';
import { cancelHeaders, type Chunk, ChunkError, chunkOf, chunkPull } from './chunk-headers';
import { ReplyInbox } from './reply-inbox';
import { injectTraceHeaders } from './trace-headers';

const tracer = trace.getTracer('@cm/platform/nats');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const internalError = () =>
  new AppError(ErrorCode.INTERNAL, 'Something went wrong on the server. Try again.');

/**
 * How long after its connection to NATS was lost a call still waits for the client to reconnect.
 * Losing one server of a cluster costs milliseconds (the client takes the next one); after this, a
 * call answers at once that the service cannot be reached, as NATS itself is away.
 */
export const RECONNECT_WAIT_MS = 2000;
/** Times one read is sent again after its connection dropped: a flapping connection stops there. */
const MAX_RESENDS = 2;
/** Pauses before a request NATS found no responder for is sent again; then 503. */
const NO_RESPONDERS_PAUSES_MS = [50, 100, 200, 400];
const lostConnection = Symbol('lost connection');

export interface SendOptions {
  /** Time to wait for this reply instead of the client's default. */
  timeoutMs?: number;
}

/** The payload may be left out when the message needs none (every field optional). */
export type SendArgs<M extends MessageDef> =
  Record<string, never> extends MessageRequest<M>
    ? [data?: MessageRequest<M>, opts?: SendOptions]
    : [data: MessageRequest<M>, opts?: SendOptions];

export interface RpcClientOptions {
  namespace: string;
  servers: string;
  /** Default time to wait for a reply. */
  timeoutMs: number;
  name: string;
  /** Credentials and inboxes of the process (`natsClientOptions`). */
  connection?: NatsClientOptions;
  /** How long after a lost connection a call still waits for it (RECONNECT_WAIT_MS). */
  reconnectWaitMs?: number;
}

/**
 * Request/reply over NATS with a deadline on every call, riding over the loss of one NATS server
 * (see requestOnce). What goes wrong comes back as an AppError: the service's own error,
 * SERVICE_UNAVAILABLE when nobody listens (NATS answers "no responders", still so after a few
 * tries within a second) or the connection stays down, SERVICE_TIMEOUT when the reply is late.
 */
export class RpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger(RpcClient.name);
  private readonly client: NamespacedClientNats;
  /** Set while the connection to NATS is lost and being re-established. */
  private disconnected = false;
  /** When the connection was last lost (performance.now()). */
  private lostAt = 0;
  /** Told when the connection is lost, and when it is back. */
  private readonly onLost = new Set<() => void>();
  private readonly onBack = new Set<() => void>();
  /** Nest's server answers only a packet with an id (one without is an event). */
  private lastId = 0;
  private closed = false;
  /** The connection's reply subscription, made with its first request. */
  private inbox?: ReplyInbox;

  constructor(private readonly options: RpcClientOptions) {
    this.client = new NamespacedClientNats(options.namespace, {
      ...options.connection,
      servers: options.servers.split(','),
      name: options.name,
      ...natsConnectionSettings,
      // An Error (a stack) captured per request, only to lengthen the stack of a failure that
      // becomes an AppError anyway: a measurable share of a request's CPU.
      noAsyncTraces: true,
    });
    this.client.status.subscribe((status) => {
      const disconnected = status !== 'connected';
      if (disconnected === this.disconnected) return;
      this.disconnected = disconnected;
      if (disconnected) this.lostAt = performance.now();
      for (const tell of disconnected ? this.onLost : this.onBack) tell();
    });
  }

  async send<M extends MessageDef>(message: M, ...[data, opts = {}]: SendArgs<M>): Promise<MessageReply<M>> {
    const ms = opts.timeoutMs ?? this.options.timeoutMs;
    return this.traced(message.subject, ms, async (started) =>
      this.parseReply(message, await this.requestOnce(message, data ?? {}, started + ms)),
    );
  }

  /**
   * One chunk of a chunked reply (chunk-streams.ts): a raw request to `<def's subject>.<streamId>`,
   * traced and timed as `send` is, within `timeoutMs`. A chunk's reply carries bytes, not JSON.
   */
  async pullChunk(def: MessageDef, streamId: string, timeoutMs: number): Promise<Chunk> {
    return this.traced(def.subject, timeoutMs, async () => {
      if (this.disconnected) throw new Error('NATS DISCONNECTED');
      const nc = await this.connection();
      const subject = `${namespacedSubject(this.options.namespace, def.subject)}.${streamId}`;
      return chunkOf(
        await nc.request(subject, chunkPull, { timeout: timeoutMs, headers: injectTraceHeaders() }),
      );
    });
  }

  /**
   * A request in a client span, timed by pattern and outcome; what fails comes back as an
   * AppError (`translate`), or as the ChunkError a chunked reply ended with.
   */
  private traced<T>(pattern: string, ms: number, request: (started: number) => Promise<T>): Promise<T> {
    return startActiveSpanLightly(
      tracer,
      `nats request ${pattern}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': pattern },
      },
      async (span) => {
        const started = performance.now();
        let outcome = 'ok';
        try {
          return await request(started);
        } catch (error) {
          const failure = error instanceof ChunkError ? error : this.translate(pattern, error, ms);
          outcome = failure instanceof AppError ? failure.code : 'error';
          span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
          throw failure;
        } finally {
          platformMetrics.natsRequestDuration.observe(
            { outcome, pattern },
            (performance.now() - started) / 1000,
          );
          span.end();
        }
      },
    );
  }

  /** Tells the holder of a chunked reply to stop it (nobody answers; a lost one runs out idle). */
  async cancelChunks(def: MessageDef, streamId: string): Promise<void> {
    const nc = await this.connection();
    const subject = `${namespacedSubject(this.options.namespace, def.subject)}.${streamId}`;
    nc.publish(subject, chunkPull, { headers: cancelHeaders() });
  }

  /** Fails unless the NATS server answers a round trip on this connection (readiness). */
  async ping(): Promise<void> {
    if (this.disconnected) throw new Error('The connection to NATS is lost; reconnecting');
    await (await this.connection()).flush();
  }

  /**
   * Publishes a notice on core NATS and returns: nobody answers, and a listener that is not
   * connected at that moment misses it, so listeners must not depend on every one arriving.
   */
  async notify<N extends NoticeDef>(notice: N, payload: z.input<N['payload']>): Promise<void> {
    if (this.disconnected) throw new Error(`NATS is disconnected: ${notice.subject} not published`);
    const nc = await this.connection();
    nc.publish(
      namespacedSubject(this.options.namespace, notice.subject),
      encoder.encode(JSON.stringify(notice.payload.parse(payload))),
    );
  }

  /**
   * Hands `handler` each notice whose payload parses (others are logged and dropped). Resolves
   * once the server knows of the subscription: from then on, while connected, none is missed.
   * The subscription outlives reconnections; what was published while disconnected is lost.
   * `lost` hears of the subscription ending on its own (NATS refused it, for one).
   */
  async listen<N extends NoticeDef>(
    notice: N,
    handler: (payload: z.output<N['payload']>) => void,
    lost: (error: Error) => void,
  ): Promise<Subscription> {
    const nc = await this.connection();
    const subscription = nc.subscribe(namespacedSubject(this.options.namespace, notice.subject), {
      callback: (error, msg) => {
        if (error) return lost(error);
        let data: unknown;
        try {
          data = JSON.parse(decoder.decode(msg.data));
        } catch {
          return this.logger.warn(`Notice ${notice.subject} is not JSON: dropped`);
        }
        const parsed = notice.payload.safeParse(data);
        if (!parsed.success)
          return this.logger.warn(
            `Notice ${notice.subject} does not match its schema: ${describeZodError(parsed.error).message}`,
          );
        // The generic schema type cannot carry N's output type through safeParse.
        handler(parsed.data as z.output<N['payload']>);
      },
    });
    await nc.flush();
    return subscription;
  }

  /**
   * The connection's state as it changes: `connected` (also after a reconnection),
   * `disconnected`, `reconnecting`.
   */
  get status(): Observable<string> {
    return this.client.status;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    await this.client.close();
  }

  /**
   * The reply to one call, by its deadline (a performance.now() time), riding over the loss of a
   * NATS server:
   * - A request is sent only while connected (the client drops what is written while it
   *   reconnects): a call made while the connection is lost waits for it to come back, briefly
   *   (RECONNECT_WAIT_MS).
   * - When the connection drops with a request in flight, the request or its reply may be lost
   *   with it: a read-only one is sent again once connected, since handling it twice changes
   *   nothing; any other waits on for its reply, which comes when the service answered after the
   *   reconnection, or times out.
   * - "No responders" means nobody received the request: it is sent again after a pause, a few
   *   times (NO_RESPONDERS_PAUSES_MS), as a service that lost its server subscribes again on
   *   another within milliseconds.
   */
  private async requestOnce(message: MessageDef, data: unknown, deadline: number): Promise<unknown> {
    let resends = 0;
    let unanswered = 0;
    for (;;) {
      await this.connectedBy(deadline);
      const reply = this.request(message.subject, data, Math.max(1, deadline - performance.now()));
      try {
        const first = message.readOnly && resends < MAX_RESENDS ? await this.unlessLost(reply) : await reply;
        if (first !== lostConnection) return first;
        resends++;
        // Abandoned: its reply, should one still come, or its timeout is nobody's concern now.
        reply.catch(() => undefined);
      } catch (error) {
        const pause = NO_RESPONDERS_PAUSES_MS[unanswered++];
        const noResponders = error instanceof NatsError && error.code === NatsErrorCode.NoResponders;
        if (!noResponders || pause === undefined || performance.now() + pause >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /** The reply, or `lostConnection` if the connection drops first. */
  private async unlessLost<T>(reply: Promise<T>): Promise<T | typeof lostConnection> {
    let stopWatching = () => {};
    const lost = new Promise<typeof lostConnection>((resolve) => {
      const tell = () => resolve(lostConnection);
      this.onLost.add(tell);
      stopWatching = () => this.onLost.delete(tell);
    });
    try {
      return await Promise.race([reply, lost]);
    } finally {
      stopWatching();
    }
  }

  /** Resolves at once while connected, else when the connection is back (see requestOnce). */
  private async connectedBy(deadline: number): Promise<void> {
    if (!this.disconnected) return;
    const giveUpAt = Math.min(deadline, this.lostAt + (this.options.reconnectWaitMs ?? RECONNECT_WAIT_MS));
    if (performance.now() >= giveUpAt) throw new Error('NATS DISCONNECTED');
    let stopWaiting = () => {};
    try {
      await new Promise<void>((resolve, reject) => {
        const back = () => resolve();
        const timer = setTimeout(() => reject(new Error('NATS DISCONNECTED')), giveUpAt - performance.now());
        this.onBack.add(back);
        stopWaiting = () => {
          clearTimeout(timer);
          this.onBack.delete(back);
        };
      });
    } finally {
      stopWaiting();
    }
  }

  /**
   * One request in the packet Nest's NATS server reads (`{ pattern, data, id }`), answered as
   * `{ response }` or `{ err }`. Replies all arrive on one inbox subscription (`ReplyInbox`): Nest's
   * client subscribes and unsubscribes an inbox per request, two more protocol messages each that
   * the NATS server and this process have to handle.
   */
  private async request(pattern: string, data: unknown, ms: number): Promise<unknown> {
    const nc = await this.connection();
    if (this.inbox?.connection !== nc) this.inbox = new ReplyInbox(nc, this.options.connection?.inboxPrefix);
    const packet = { pattern, data, id: String(++this.lastId) };
    const msg = await this.inbox.request(
      namespacedSubject(this.options.namespace, pattern),
      encoder.encode(JSON.stringify(packet)),
      { timeout: ms, headers: injectTraceHeaders() },
    );
    if (msg.data.length === 0) throw new EmptyResponseException(pattern);
    const reply = JSON.parse(decoder.decode(msg.data)) as Record<string, unknown> | null;
    // A reply without Nest's envelope (a responder that is not a Nest service) is the response
    // itself, as Nest's client takes it.
    if (!reply || (reply.err === undefined && reply.response === undefined && reply.isDisposed === undefined))
      return reply;
    if (reply.err !== undefined && reply.err !== null) throw reply.err;
    return reply.response;
  }

  /** The connection itself, for what request/reply does not cover (serving chunked replies). */
  async connection(): Promise<NatsConnection> {
    // Nest's client connects anew when asked after its close, and nothing would ever close that
    // connection: a call still made while the service stops (a notice, a retry) is refused instead.
    if (this.closed) throw new Error('The NATS connection is closed: this service is stopping');
    return (await this.client.connect()) as NatsConnection;
  }

  /**
   * Every reply is parsed, in production too: it costs about what decoding its JSON already did
   * (a page of 1,000 report rows, some 3 ms), and dev-only parsing would let development and
   * production see different values (defaults filled in, fields the schema does not name dropped,
   * so a field a service leaks goes no further than here). A reply off its contract is the
   * caller's error at once, not a wrong value found later.
   */
  private parseReply<M extends MessageDef>(message: M, reply: unknown): MessageReply<M> {
    const parsed = message.reply.safeParse(reply);
    // The generic schema type cannot carry M's output type through safeParse.
    if (parsed.success) return parsed.data as MessageReply<M>;
    this.logger.error(
      `The reply to ${message.subject} does not match its schema: ${describeZodError(parsed.error).message}`,
    );
    throw internalError();
  }

  private translate(pattern: string, error: unknown, ms: number): AppError {
    const service = pattern.split('.')[0];
    if (error instanceof AppError) return error;
    if (isErrorBody(error)) return new AppError(error.code as ErrorCode, error.message, error.errors);
    const natsCode = error instanceof NatsError ? error.code : undefined;
    if (natsCode === NatsErrorCode.Timeout) {
      return new AppError(
        ErrorCode.SERVICE_TIMEOUT,
        `The ${service} service did not answer within ${ms} ms. Try again.`,
      );
    }
    if (error instanceof EmptyResponseException || natsCode === NatsErrorCode.NoResponders) {
      return new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        `The ${service} service is unavailable. Try again shortly.`,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    if (/CONNECTION|DISCONNECT|closed|ECONNREFUSED|no responders/i.test(message)) {
      return new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        `The ${service} service is unavailable. Try again shortly.`,
      );
    }
    this.logger.error(`Unexpected reply for ${pattern}: ${message}`);
    return internalError();
  }
}
