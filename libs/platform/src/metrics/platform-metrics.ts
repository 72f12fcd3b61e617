import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Request latencies from 1 ms to 30 s: NATS replies on loopback take about a millisecond. */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The metrics every process has, in one registry per process: the NATS transports and the
 * JetStream consumers are created outside Nest's injector, so they cannot be handed one.
 * prom-client shows a series' labels in the order its first caller gave them: callers give them
 * in alphabetical order, the order the series have always been shown in.
 */
export class PlatformMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'cm_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'cm_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its response, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  readonly natsRequestDuration = new Histogram({
    name: 'cm_nats_request_duration_seconds',
    help: 'Time from sending a NATS request to its reply, by pattern and outcome (ok, or the error code).',
    labelNames: ['outcome', 'pattern'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  readonly natsHandleDuration = new Histogram({
    name: 'cm_nats_handle_duration_seconds',
    help: 'Time this service took to handle a NATS request, by pattern and outcome (ok, error).',
    labelNames: ['outcome', 'pattern'] as const,
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  readonly natsInFlight = new Gauge({
    name: 'cm_nats_requests_in_flight',
    help: 'NATS requests this service is handling now.',
    registers: [this.registry],
  });
  readonly eventsHandled = new Counter({
    name: 'cm_jetstream_events_handled_total',
    help: 'JetStream events this process handled, by consumer and outcome (ack, nak, term).',
    labelNames: ['consumer', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly consumerPending = new Gauge({
    name: 'cm_jetstream_consumer_pending',
    help: 'Events in the stream not yet delivered to the durable consumer (its lag), at the last scrape.',
    labelNames: ['consumer', 'stream'] as const,
    registers: [this.registry],
  });
  readonly consumerAckPending = new Gauge({
    name: 'cm_jetstream_consumer_ack_pending',
    help: 'Events delivered to the durable consumer and not yet acknowledged, at the last scrape.',
    labelNames: ['consumer', 'stream'] as const,
    registers: [this.registry],
  });
  readonly consumerOldestUnackedAge = new Gauge({
    name: 'cm_jetstream_consumer_oldest_unacked_age_seconds',
    help: 'Age of the oldest event the durable consumer has not acknowledged (delivered or not), at the last scrape; 0 when none waits.',
    labelNames: ['consumer', 'stream'] as const,
    registers: [this.registry],
  });
  readonly consumerRedelivered = new Gauge({
    name: 'cm_jetstream_consumer_redelivered',
    help: 'Events delivered more than once and still unacknowledged, at the last scrape.',
    labelNames: ['consumer', 'stream'] as const,
    registers: [this.registry],
  });

  readonly ready = new Gauge({
    name: 'cm_ready',
    help: 'Whether the last readiness probe of this process passed (1) or failed (0).',
    registers: [this.registry],
  });
  readonly readinessChanges = new Counter({
    name: 'cm_readiness_changes_total',
    help: 'Times the readiness probe of this process changed its answer, by the state it turned to (up, down).',
    labelNames: ['to'] as const,
    registers: [this.registry],
  });
  private lastReadiness?: 'up' | 'down';

  /**
   * The answer a readiness probe just got. Counting the changes shows a pod that flaps in and out
   * of its Service, which the gauge alone, sampled at each scrape, would mostly miss.
   */
  observeReadiness(status: 'up' | 'down'): void {
    this.ready.set(status === 'up' ? 1 : 0);
    if (this.lastReadiness !== undefined && this.lastReadiness !== status)
      this.readinessChanges.inc({ to: status });
    this.lastReadiness = status;
  }

  constructor() {
    // Node's runtime (event-loop lag, heap, GC, CPU) under prom-client's standard names, without
    // our prefix, so that the usual Node.js dashboards read them as they are.
    collectDefaultMetrics({ register: this.registry });
  }
}

export const platformMetrics = new PlatformMetrics();
