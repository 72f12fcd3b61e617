import { hostname } from 'node:os';
import {
  type EventInput,
  eventSchemas,
  type EventSubject,
  namespacedName,
  namespacedSubject,
  type NatsPrincipal,
  type ServiceName,
  streamsOf,
} from '@cm/contracts';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  type JetStreamClient,
  type JetStreamManager,
  JSONCodec,
  type KV,
  type KvOptions,
  type NatsConnection,
  type PubAck,
  type StreamInfo,
} from 'nats';
import { CONFIG, type CoreConfig, type JetStreamConfig } from '../config';
import { HealthService } from '../health';
import { MetricsService } from '../metrics/metrics.service';
import { closeIfStartFails } from '../start-resources';
import {
  connectPatiently,
  natsClientOptions,
  type NatsClientOptions,
  natsConnectionSettings,
} from './connection-options';
import { DurableConsumer, type DurableConsumerOptions } from './durable-consumer';
import {
  ensureStream,
  ensureStreamAtStart,
  openKv,
  type StreamDef,
  type StreamLimits,
  streamOf,
} from './streams';
import { injectTraceHeaders } from './trace-headers';

const tracer = trace.getTracer('@cm/platform/jetstream');
const json = JSONCodec<unknown>();

export interface PublishOptions {
  /** De-duplication key: the same id within the stream's duplicate window is stored once. */
  msgId: string;
  /** How long to wait for the stream's acknowledgement. */
  timeoutMs?: number;
}

export interface JetStreamConnectOptions {
  namespace: string;
  servers: string;
  name: string;
  /** Deadline of every JetStream API call and of each publish acknowledgement. */
  timeoutMs: number;
  /** Credentials and inboxes of the process (`natsClientOptions`). */
  connection?: NatsClientOptions;
  /** Copies of each stream and KV bucket this connection creates (NATS_STREAM_REPLICAS). */
  replicas?: number;
}

/**
 * One NATS connection for JetStream: publishing events (validated, traced, acknowledged by the
 * stream within a deadline) and durable consumers. `close` stops the consumers first, then
 * drains the connection, so nothing in flight is cut.
 */
export class JetStreamConnection {
  private readonly logger = new Logger(JetStreamConnection.name);
  private readonly consumers: DurableConsumer<EventSubject>[] = [];
  private readonly ensured = new Map<string, Promise<StreamInfo>>();

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    readonly namespace: string,
    private readonly timeoutMs: number,
    /** Copies of each stream and KV bucket (NATS_STREAM_REPLICAS). */
    readonly replicas: number,
  ) {}

  static async connect(options: JetStreamConnectOptions): Promise<JetStreamConnection> {
    const nc = await connectPatiently({
      ...options.connection,
      servers: options.servers.split(','),
      name: options.name,
      ...natsConnectionSettings,
    });
    const jsm = await nc.jetstreamManager({ timeout: options.timeoutMs });
    return new JetStreamConnection(
      nc,
      nc.jetstream({ timeout: options.timeoutMs }),
      jsm,
      options.namespace,
      options.timeoutMs,
      options.replicas ?? 1,
    );
  }

  /** A connection of `service`'s with its configured servers and user, named `<service>-<purpose>`. */
  static connectAs(
    config: CoreConfig & JetStreamConfig,
    service: NatsPrincipal,
    purpose: string,
  ): Promise<JetStreamConnection> {
    return JetStreamConnection.connect({
      namespace: config.CM_NAMESPACE,
      servers: config.NATS_URL,
      name: `${service}-${purpose}@${hostname()}:${process.pid}`,
      timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
      connection: natsClientOptions(config, service),
      replicas: config.NATS_STREAM_REPLICAS,
    });
  }

  /** Ensures a stream once per connection (and per process), however many publishers use it. */
  ensureStream(stream: StreamDef, limits?: Partial<StreamLimits>): Promise<StreamInfo> {
    let pending = this.ensured.get(stream.name);
    if (!pending) {
      pending = ensureStream(this.jsm, this.namespace, stream, limits, this.replicas);
      pending.catch(() => this.ensured.delete(stream.name));
      this.ensured.set(stream.name, pending);
    }
    return pending;
  }

  /** Opens the namespace's KV bucket `bucket` with the connection's replica count. */
  kv(bucket: string, options: Partial<KvOptions> = {}): Promise<KV> {
    return openKv(this.js, this.jsm, namespacedName(this.namespace, bucket), options, this.replicas);
  }

  /**
   * Publishes one event after checking it against its subject's schema, with the trace context
   * in its headers, and resolves once the stream has stored it (or knew it already: `duplicate`).
   */
  async publish<S extends EventSubject>(
    subject: S,
    payload: EventInput<S>,
    options: PublishOptions,
  ): Promise<PubAck> {
    const data = eventSchemas[subject].parse(payload);
    await this.ensureStream(streamOf(subject));
    const wire = namespacedSubject(this.namespace, subject);
    return tracer.startActiveSpan(
      `jetstream publish ${subject}`,
      {
        kind: SpanKind.PRODUCER,
        attributes: { 'messaging.system': 'nats', 'messaging.destination.name': wire },
      },
      async (span) => {
        try {
          return await this.js.publish(wire, json.encode(data), {
            msgID: options.msgId,
            timeout: options.timeoutMs ?? this.timeoutMs,
            headers: injectTraceHeaders(),
          });
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }

  /** Starts a durable consumer; it is stopped by `close`. */
  async consume<S extends EventSubject>(options: DurableConsumerOptions<S>): Promise<DurableConsumer<S>> {
    const consumer = new DurableConsumer(this, options);
    await consumer.start();
    this.consumers.push(consumer as unknown as DurableConsumer<EventSubject>);
    return consumer;
  }

  /** Reads every running consumer's lag into the metrics; `now` in epoch ms. */
  async collectLag(now = Date.now()): Promise<void> {
    await Promise.all(this.consumers.map((c) => c.collectLag(now)));
  }

  async stopConsumers(): Promise<void> {
    await Promise.all(this.consumers.splice(0).map((c) => c.stop()));
  }

  async close(): Promise<void> {
    await this.stopConsumers();
    if (this.nc.isClosed()) return;
    await this.nc.drain().catch((error: unknown) => this.logger.warn(`NATS drain failed: ${String(error)}`));
  }
}

/** Nest lifecycle around one JetStreamConnection: consumers stop before the database closes. */
@Injectable()
class JetStreamLifecycle implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(JetStreamConnection) private readonly connection: JetStreamConnection,
    health: HealthService,
    metrics: MetricsService,
  ) {
    health.register('jetstream', async () => {
      await this.connection.jsm.getAccountInfo();
    });
    metrics.addCollector(() => this.connection.collectLag());
  }

  // Before shutdown hooks, so an event in flight still has its database to commit to.
  beforeApplicationShutdown(): Promise<void> {
    return this.connection.stopConsumers();
  }

  onApplicationShutdown(): Promise<void> {
    return this.connection.close();
  }
}

/** Provides the service's JetStreamConnection with a readiness check and an orderly close. */
export class JetStreamModule {
  static forService(service: ServiceName): DynamicModule {
    return {
      module: JetStreamModule,
      global: true,
      providers: [
        {
          provide: JetStreamConnection,
          inject: [CONFIG],
          useFactory: async (config: CoreConfig & JetStreamConfig) => {
            const connection = await JetStreamConnection.connectAs(config, service, 'jetstream');
            closeIfStartFails(config, () => connection.close());
            // At start, not at the first event: a replica count the servers cannot keep stops the
            // pod with the reason, rather than failing every publish later. Only the service's own
            // streams: its NATS user may touch no other.
            try {
              for (const stream of streamsOf(service))
                await ensureStreamAtStart(() => connection.ensureStream(stream), stream.name);
            } catch (error) {
              await connection.close();
              throw error;
            }
            return connection;
          },
        },
        JetStreamLifecycle,
      ],
      exports: [JetStreamConnection],
    };
  }
}
