import { Registry } from './registry';

/** Request latencies from 1 ms to 30 s: NATS replies on loopback take about a millisecond. */
export const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The metrics every process has, in one registry per process: the NATS transports and the
 * JetStream consumers are created outside Nest's injector, so they cannot be handed one.
 */
export class PlatformMetrics {
  readonly registry = new Registry();

  readonly httpRequests = this.registry.counter(
    'cm_http_requests_total',
    'HTTP requests answered, by method, route pattern and status code.',
  );
  readonly httpDuration = this.registry.histogram(
    'cm_http_request_duration_seconds',
    'Time from receiving an HTTP request to the end of its response, by method and route pattern.',
    latencyBuckets,
  );
  readonly natsRequestDuration = this.registry.histogram(
    'cm_nats_request_duration_seconds',
    'Time from sending a NATS request to its reply, by pattern and outcome (ok, or the error code).',
    latencyBuckets,
  );
  readonly natsHandleDuration = this.registry.histogram(
    'cm_nats_handle_duration_seconds',
    'Time this service took to handle a NATS request, by pattern and outcome (ok, error).',
    latencyBuckets,
  );
  readonly natsInFlight = this.registry.gauge(
    'cm_nats_requests_in_flight',
    'NATS requests this service is handling now.',
  );
  readonly eventsHandled = this.registry.counter(
    'cm_jetstream_events_handled_total',
    'JetStream events this process handled, by consumer and outcome (ack, nak, term).',
  );
  readonly consumerPending = this.registry.gauge(
    'cm_jetstream_consumer_pending',
    'Events in the stream not yet delivered to the durable consumer (its lag), at the last scrape.',
  );
  readonly consumerAckPending = this.registry.gauge(
    'cm_jetstream_consumer_ack_pending',
    'Events delivered to the durable consumer and not yet acknowledged, at the last scrape.',
  );
  readonly consumerRedelivered = this.registry.gauge(
    'cm_jetstream_consumer_redelivered',
    'Events delivered more than once and still unacknowledged, at the last scrape.',
  );
}

export const platformMetrics = new PlatformMetrics();
