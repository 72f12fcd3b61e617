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
import { platformMetrics } from '../metrics/platform-metrics';
import { type NatsClientOptions, natsConnectionSettings } from './connection-options';
import { NamespacedClientNats } from './namespaced-transport';
import { injectTraceHeaders } from './trace-headers';

const tracer = trace.getTracer('@cm/platform/nats');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const internalError = () =>
  new AppError(ErrorCode.INTERNAL, 'Something went wrong on the server. Try again.');

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
}

/**
 * Request/reply over NATS with a deadline on every call. What goes wrong comes back as an
 * AppError: the service's own error, SERVICE_UNAVAILABLE when nobody listens (NATS answers
 * "no responders" at once) or the connection is down, SERVICE_TIMEOUT when the reply is late.
 */
export class RpcClient implements OnApplicationShutdown {
  private readonly logger = new Logger(RpcClient.name);
  private readonly client: NamespacedClientNats;
  /** Set while the connection to NATS is lost and being re-established. */
  private disconnected = false;
  /** Nest's server answers only a packet with an id (one without is an event). */
  private lastId = 0;
  private closed = false;

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
    this.client.status.subscribe((status) => (this.disconnected = status !== 'connected'));
  }

  async send<M extends MessageDef>(message: M, ...[data, opts = {}]: SendArgs<M>): Promise<MessageReply<M>> {
    const pattern = message.subject;
    const ms = opts.timeoutMs ?? this.options.timeoutMs;
    return tracer.startActiveSpan(
      `nats request ${pattern}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': pattern },
      },
      async (span) => {
        const started = performance.now();
        let outcome = 'ok';
        try {
          // The client would buffer the request until NATS is back and the caller would wait out
          // the deadline: say at once that the service cannot be reached.
          if (this.disconnected) throw new Error('NATS DISCONNECTED');
          return this.parseReply(message, await this.request(pattern, data ?? {}, ms));
        } catch (error) {
          const appError = this.translate(pattern, error, ms);
          outcome = appError.code;
          span.setStatus({ code: SpanStatusCode.ERROR, message: appError.code });
          throw appError;
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
   * One request in the packet Nest's NATS server reads (`{ pattern, data, id }`), answered as
   * `{ response }` or `{ err }`. Sent with nats.js's own request, whose replies all arrive on one
   * inbox subscription: Nest's client subscribes and unsubscribes an inbox per request, two more
   * protocol messages each that the NATS server and this process have to handle.
   */
  private async request(pattern: string, data: unknown, ms: number): Promise<unknown> {
    const nc = await this.connection();
    const packet = { pattern, data, id: String(++this.lastId) };
    const msg = await nc.request(
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

  private async connection(): Promise<NatsConnection> {
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
