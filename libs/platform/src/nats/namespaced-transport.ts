import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import { type ConnectionOptions, headers as natsHeaders, type Msg, type Subscription } from 'nats';
import { startActiveSpanLightly } from '../light-spans';
import { platformMetrics } from '../metrics/platform-metrics';
import { messageErrorBody } from '../rpc-error.filter';
import { connectPatiently } from './connection-options';
import { extractTraceContext, injectTraceHeaders } from './trace-headers';

type NatsTransportOptions = NonNullable<NatsOptions['options']>;

const tracer = trace.getTracer('@cm/platform/nats');
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A message handler that takes the request's payload as it arrived and checks it itself. */
export type DirectHandler = (payload: unknown) => unknown;

/** A request as Nest's NATS client sends it. */
interface RequestPacket {
  id?: unknown;
  pattern?: unknown;
  data?: unknown;
}

function withNamespace(ns: string, route: string): string {
  const prefix = `${ns}.`;
  return route.startsWith(prefix) ? route : prefix + route;
}

/**
 * Nest's NATS server with these additions: every pattern is subscribed under the stack's
 * namespace, each message is handled inside a span that continues the caller's trace and is timed
 * per pattern, and closing drains instead of dropping what was already sent to this replica.
 */
export class NamespacedServerNats extends ServerNats {
  private readonly handling = new Set<Promise<unknown>>();
  private connected = false;
  /** Replies made while the connection was lost, sent once it is back. */
  private held: (() => void)[] = [];
  /** Handlers called without Nest's pipeline, by namespaced subject (`handleDirectly`). */
  private readonly direct = new Map<string, DirectHandler>();

  constructor(
    private readonly namespace: string,
    private readonly connection: NatsTransportOptions,
  ) {
    super(connection);
    this.status.subscribe((status) => {
      this.connected = status === 'connected';
      if (!this.connected) return;
      const replies = this.held;
      this.held = [];
      for (const reply of replies) reply();
    });
  }

  /**
   * Holds a reply made while the connection to NATS is lost until the client has reconnected:
   * nats.js drops what is written meanwhile, and the caller would wait out its deadline for a
   * request that was handled (its reply subject reaches the caller from any server of the
   * cluster). Only requests received before the loss can be answered then, so few are held.
   */
  /**
   * Answers `subject`'s requests by calling `handle` itself rather than through Nest's pipeline
   * (context creation, parameter pipes, the exception handler, rxjs observables and a reply queued
   * for the next tick): a fifth of a service's CPU per message on the API's reads. The reply is
   * the packet Nest's server sends, failures shaped by the same `messageErrorBody` as
   * `RpcErrorFilter`; what is not a plain request with a reply subject still goes to Nest.
   */
  handleDirectly(subject: string, handle: DirectHandler): void {
    this.direct.set(this.normalizePattern(subject), handle);
  }

  /** The subjects `handleDirectly` took, without the namespace. */
  directSubjects(): string[] {
    return [...this.direct.keys()].map((channel) => channel.slice(this.namespace.length + 1));
  }

  override getPublisher(...args: Parameters<ServerNats['getPublisher']>): (response: unknown) => unknown {
    const publish = super.getPublisher(...args);
    return (response) => {
      if (this.connected) return publish(response);
      this.held.push(() => publish(response));
    };
  }

  /** Nest's first connection, tried again while the servers answer slowly (see connectPatiently). */
  override createNatsClient(): ReturnType<ServerNats['createNatsClient']> {
    return connectPatiently(this.connection as ConnectionOptions);
  }

  override normalizePattern(pattern: Parameters<ServerNats['normalizePattern']>[0]): string {
    return withNamespace(this.namespace, super.normalizePattern(pattern));
  }

  /**
   * Every pattern here is a plain subject: Nest would first try each incoming one as JSON, and the
   * SyntaxError it throws and catches per message was a few per cent of a service's CPU.
   */
  override getRouteFromPattern(pattern: string): string {
    return this.normalizePattern(pattern);
  }

  /**
   * Leaves the queue groups without losing a request: Nest's graceful close unsubscribes, and the
   * requests NATS had already sent this replica (in transit, or in the client's buffer) would be
   * dropped, each a timeout for its caller. Draining lets them arrive and be handled, the requests
   * in hand finish and their replies go out, and only then does the connection close.
   */
  override async close(): Promise<void> {
    const subscriptions = (this as unknown as { subscriptions: Subscription[] }).subscriptions;
    await Promise.all(
      subscriptions.map((s) => (s.isClosed() ? undefined : s.drain().catch(() => undefined))),
    );
    while (this.handling.size > 0) await Promise.allSettled([...this.handling]);
    await super.close();
  }

  override handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    const handled = this.handleTraced(channel, natsMsg);
    this.handling.add(handled);
    void handled.finally(() => this.handling.delete(handled)).catch(() => undefined);
    return handled;
  }

  private handleTraced(channel: string, natsMsg: Msg): Promise<unknown> {
    const parent = extractTraceContext(natsMsg.headers);
    const name = channel.slice(this.namespace.length + 1);
    return context.with(parent, () =>
      startActiveSpanLightly(
        tracer,
        `nats process ${name}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': channel },
        },
        async (span) => {
          const started = performance.now();
          let outcome = 'ok';
          platformMetrics.natsInFlight.inc();
          try {
            return await this.dispatch(channel, natsMsg);
          } catch (error) {
            outcome = 'error';
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            platformMetrics.natsInFlight.dec();
            platformMetrics.natsHandleDuration.observe(
              { outcome, pattern: name },
              (performance.now() - started) / 1000,
            );
            span.end();
          }
        },
      ),
    );
  }

  private async dispatch(channel: string, natsMsg: Msg): Promise<unknown> {
    const handle = this.direct.get(channel);
    const packet = handle && natsMsg.reply ? requestPacket(natsMsg.data) : undefined;
    if (!handle || !packet) return super.handleMessage(channel, natsMsg as never);
    let reply: { response?: unknown; err?: unknown; isDisposed: true; id: unknown };
    try {
      reply = { response: await handle(packet.data), isDisposed: true, id: packet.id };
    } catch (error) {
      reply = { err: messageErrorBody(error), isDisposed: true, id: packet.id };
    }
    const send = () => natsMsg.respond(encoder.encode(JSON.stringify(reply)));
    if (this.connected) send();
    else this.held.push(send);
  }
}

/**
 * The request in `data` when it is one Nest would answer (JSON with an id, and a pattern or data);
 * undefined otherwise, left to Nest: what it does with an event or with bytes that are not JSON.
 */
function requestPacket(data: Uint8Array): RequestPacket | undefined {
  let packet: unknown;
  try {
    packet = JSON.parse(decoder.decode(data));
  } catch {
    return undefined;
  }
  if (typeof packet !== 'object' || packet === null) return undefined;
  const { id, pattern, data: payload } = packet as RequestPacket;
  return id !== undefined && (pattern !== undefined || payload !== undefined) ? packet : undefined;
}

/** Nest's NATS client, publishing under the namespace and carrying the trace context in headers. */
export class NamespacedClientNats extends ClientNats {
  constructor(
    private readonly namespace: string,
    options: NatsTransportOptions,
  ) {
    super(options);
  }

  /** Nest's first connection, tried again while the servers answer slowly (see connectPatiently). */
  override createClient(): ReturnType<ClientNats['createClient']> {
    return connectPatiently(this.options as ConnectionOptions);
  }

  protected override normalizePattern(pattern: Parameters<ClientNats['normalizePattern']>[0]): string {
    return withNamespace(this.namespace, super.normalizePattern(pattern));
  }

  protected override mergeHeaders<THeaders = unknown>(requestHeaders?: THeaders): unknown {
    return injectTraceHeaders(
      (super.mergeHeaders(requestHeaders) as ReturnType<typeof natsHeaders>) ?? natsHeaders(),
    );
  }
}
