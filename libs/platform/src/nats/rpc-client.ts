import {
  describeZodError,
  ErrorCode,
  type MessageDef,
  type MessageReply,
  type MessageRequest,
} from '@cm/contracts';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EmptyResponseException } from '@nestjs/microservices/errors/empty-response.exception';
import { lastValueFrom, timeout, TimeoutError } from 'rxjs';
import { AppError, isErrorBody } from '../errors';
import { platformMetrics } from '../metrics/platform-metrics';
import { type NatsClientOptions } from './connection-options';
import { NamespacedClientNats } from './namespaced-transport';

const tracer = trace.getTracer('@cm/platform/nats');

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

  constructor(private readonly options: RpcClientOptions) {
    this.client = new NamespacedClientNats(options.namespace, {
      ...options.connection,
      servers: options.servers.split(','),
      name: options.name,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      timeout: 5000,
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
          const reply = await lastValueFrom(this.client.send<unknown>(pattern, data ?? {}).pipe(timeout(ms)));
          return this.parseReply(message, reply);
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

  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
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
    if (error instanceof TimeoutError) {
      return new AppError(
        ErrorCode.SERVICE_TIMEOUT,
        `The ${service} service did not answer within ${ms} ms. Try again.`,
      );
    }
    if (error instanceof EmptyResponseException) {
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
