import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ClientNats, ServerNats, type NatsOptions } from '@nestjs/microservices';
import { type ConnectionOptions, headers as natsHeaders, type Msg, type Subscription } from 'nats';
import { platformMetrics } from '../metrics/platform-metrics';
import { connectPatiently } from './connection-options';
import { extractTraceContext, injectTraceHeaders } from './trace-headers';

type NatsTransportOptions = NonNullable<NatsOptions['options']>;

const tracer = trace.getTracer('@cm/platform/nats');

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
      tracer.startActiveSpan(
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
            return await super.handleMessage(channel, natsMsg as never);
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
