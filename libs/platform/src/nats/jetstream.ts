import { hostname } from 'node:os';
import {
  type EventInput,
  type EventPayload,
  eventSchemas,
  type EventSubject,
  namespacedName,
  namespacedSubject,
  type NatsPrincipal,
  type ServiceName,
  streams,
  streamsOf,
} from '@cm/contracts';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  type BeforeApplicationShutdown,
  type DynamicModule,
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  AckPolicy,
  connect,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  DeliverPolicy,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JSONCodec,
  type KV,
  type KvOptions,
  nanos,
  type MsgRequest,
  type NatsConnection,
  type PubAck,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from 'nats';
import { CONFIG, type CoreConfig, type JetStreamConfig } from '../config';
import { HealthService } from '../health';
import { MetricsService } from '../metrics/metrics.service';
import { platformMetrics } from '../metrics/platform-metrics';
import { closeIfStartFails } from '../start-resources';
import { natsClientOptions, type NatsClientOptions, natsConnectionSettings } from './connection-options';
import { extractTraceContext, injectTraceHeaders } from './trace-headers';

const tracer = trace.getTracer('@cm/platform/jetstream');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = JSONCodec<unknown>();

/** A stream as the contracts name it: relative name and subjects, namespaced here. */
export interface StreamDef {
  name: string;
  subjects: readonly string[];
  /** The stream's own limits, over the defaults (a live stream keeps minutes, not days). */
  maxAgeMs?: number;
  maxBytes?: number;
}

export interface StreamLimits {
  /** How long a message is kept, consumed or not: consumers that were down catch up within it. */
  maxAgeMs: number;
  /** Messages with a msgId already seen within this window are dropped (at least 2 minutes). */
  duplicateWindowMs: number;
  /** Size cap of the stream; the oldest messages go first when it is reached. */
  maxBytes: number;
}

const MIN_DUPLICATE_WINDOW_MS = 2 * 60_000;

export const defaultStreamLimits: StreamLimits = {
  maxAgeMs: 7 * 24 * 60 * 60_000,
  duplicateWindowMs: MIN_DUPLICATE_WINDOW_MS,
  maxBytes: 1024 * 1024 * 1024,
};

/** `STATUS` in namespace `cm` → stream `cm_STATUS` on subjects `cm.monitor.status.checked`. */
export function streamConfigFor(
  namespace: string,
  stream: StreamDef,
  limits: Partial<StreamLimits> = {},
  replicas = 1,
): Partial<StreamConfig> & { name: string } {
  const own: Partial<StreamLimits> = {};
  if (stream.maxAgeMs !== undefined) own.maxAgeMs = stream.maxAgeMs;
  if (stream.maxBytes !== undefined) own.maxBytes = stream.maxBytes;
  const l = { ...defaultStreamLimits, ...own, ...limits };
  if (l.duplicateWindowMs < MIN_DUPLICATE_WINDOW_MS || l.duplicateWindowMs > l.maxAgeMs) {
    throw new Error(
      `The duplicate window of ${stream.name} must be between 2 minutes and its max age (${l.maxAgeMs} ms)`,
    );
  }
  return {
    name: namespacedName(namespace, stream.name),
    subjects: stream.subjects.map((s) => namespacedSubject(namespace, s)),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(l.maxAgeMs),
    duplicate_window: nanos(l.duplicateWindowMs),
    max_bytes: l.maxBytes,
    num_replicas: replicas,
  };
}

/** JetStream's answer for a stream or consumer that does not exist. */
export const isNotFound = (error: unknown) => /not found/i.test(String((error as Error)?.message ?? error));
const isAlreadyInUse = (error: unknown) => /already in use/i.test(String((error as Error)?.message ?? error));

/**
 * A clear start-up failure when the NATS servers cannot keep `replicas` copies: a single server
 * refuses any count above 1, a cluster one above its number of JetStream servers.
 */
export function replicaProblem(error: unknown, stream: string, replicas: number): Error {
  const said = String((error as Error)?.message ?? error);
  if (replicas <= 1 || !/non-clustered|insufficient resources|no suitable peers|replicas/i.test(said)) {
    return error instanceof Error ? error : new Error(said);
  }
  const hint = /non-clustered/i.test(said)
    ? 'the NATS server is a single server, not a cluster'
    : `the NATS cluster has fewer than ${replicas} servers with JetStream available`;
  return new Error(
    `NATS_STREAM_REPLICAS=${replicas}: the stream ${stream} cannot be kept on ${replicas} servers, as ` +
      `${hint}. Run JetStream on a cluster of at least ${replicas} servers, or lower NATS_STREAM_REPLICAS ` +
      `(1 for a single server). NATS said: ${said}`,
  );
}

const streamLogger = new Logger('JetStream');

/**
 * Brings an existing stream's replica count to the wanted one (NATS moves the copies itself).
 * Returns the info after the change, or the info given when nothing had to change.
 */
async function ensureReplicas(
  jsm: JetStreamManager,
  info: StreamInfo,
  replicas: number,
): Promise<StreamInfo> {
  const current = info.config.num_replicas || 1;
  const name = info.config.name;
  // A single server takes any count by update and keeps one copy all the same: refuse it here.
  if (replicas > 1 && !info.cluster?.name) {
    throw replicaProblem(new Error('the server reports no cluster (non-clustered mode)'), name, replicas);
  }
  if (current === replicas) return info;
  streamLogger.warn(
    `Stream ${name} has ${current} replica(s); changing it to ${replicas} (NATS_STREAM_REPLICAS)`,
  );
  try {
    return await jsm.streams.update(name, { ...info.config, num_replicas: replicas });
  } catch (error) {
    throw replicaProblem(error, name, replicas);
  }
}

/**
 * Creates the stream, or brings its subjects, limits and replica count to the wanted ones. Safe
 * to call from every replica of every service that uses the stream, at the same time.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  namespace: string,
  stream: StreamDef,
  limits: Partial<StreamLimits> = {},
  replicas = 1,
): Promise<StreamInfo> {
  const wanted = streamConfigFor(namespace, stream, limits, replicas);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(wanted.name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      return await jsm.streams.add(wanted);
    } catch (addError) {
      // Another process created it between our look-up and our create.
      if (!isAlreadyInUse(addError)) throw replicaProblem(addError, wanted.name, replicas);
      info = await jsm.streams.info(wanted.name);
    }
  }
  info = await ensureReplicas(jsm, info, replicas);
  const c = info.config;
  const same =
    [...c.subjects].sort().join() === [...wanted.subjects!].sort().join() &&
    c.max_age === wanted.max_age &&
    c.duplicate_window === wanted.duplicate_window &&
    c.max_bytes === wanted.max_bytes &&
    c.discard === wanted.discard;
  return same ? info : jsm.streams.update(wanted.name, { ...c, ...wanted });
}

/**
 * Opens a KV bucket (a stream `KV_<bucket>`), creating it with `replicas` copies, and brings an
 * existing one to that count: the library alone would keep whatever count it was created with.
 */
export async function openKv(
  js: JetStreamClient,
  jsm: JetStreamManager,
  bucket: string,
  options: Partial<KvOptions>,
  replicas = 1,
): Promise<KV> {
  let kv: KV;
  try {
    kv = await js.views.kv(bucket, { ...options, replicas });
  } catch (error) {
    throw replicaProblem(error, `KV_${bucket}`, replicas);
  }
  await ensureReplicas(jsm, await jsm.streams.info(`KV_${bucket}`), replicas);
  return kv;
}

/** The contracts' stream that captures an event subject. */
export function streamOf(subject: EventSubject): StreamDef {
  const found = Object.values(streams).find((s) => (s.subjects as readonly string[]).includes(subject));
  if (!found) throw new Error(`No stream captures ${subject}`);
  return found;
}

export interface PublishOptions {
  /** De-duplication key: the same id within the stream's duplicate window is stored once. */
  msgId: string;
  /** How long to wait for the stream's acknowledgement. */
  timeoutMs?: number;
}

export interface DeliveryMeta {
  subject: string;
  msgId: string | undefined;
  /** 1 on the first delivery. */
  deliveryCount: number;
  streamSequence: number;
}

export interface DurableConsumerOptions<S extends EventSubject> {
  stream: StreamDef;
  /** Durable name, unique per consuming service (replicas share it, so each event goes to one). */
  durable: string;
  subject: S;
  /** Acknowledged when it resolves (after the caller's commit); redelivered later when it throws. */
  handle(payload: EventPayload<S>, meta: DeliveryMeta): Promise<void>;
  /** Deliveries before an event is given up (and logged). */
  maxDeliver?: number;
  /** Time a delivered event may stay unacknowledged before the server delivers it again. */
  ackWaitMs?: number;
  /** Wait before a failed event is delivered again; grows with each attempt. */
  retryDelayMs?: (deliveryCount: number) => number;
  /** Events pulled ahead per request. */
  batch?: number;
}

export const defaultRetryDelay = (deliveryCount: number) =>
  Math.min(500 * 2 ** Math.max(0, deliveryCount - 1), 60_000);

/**
 * Pulls one durable consumer with explicit acknowledgement, one event at a time (events of a
 * stream are handled in order). A handler failure is a `nak` with a growing delay; an event
 * that fails its schema can never succeed and is terminated at once.
 */
export class DurableConsumer<S extends EventSubject> {
  private readonly logger: Logger;
  private messages?: ConsumerMessages;
  private stopping = false;
  private loop?: Promise<void>;

  constructor(
    private readonly connection: JetStreamConnection,
    private readonly options: DurableConsumerOptions<S>,
  ) {
    this.logger = new Logger(`DurableConsumer ${options.durable}`);
  }

  get streamName(): string {
    return namespacedName(this.connection.namespace, this.options.stream.name);
  }

  /** Creates or updates the durable consumer on the server and starts pulling. */
  async start(): Promise<void> {
    const { jsm, namespace, replicas } = this.connection;
    await ensureStream(jsm, namespace, this.options.stream, {}, replicas);
    await this.ensureConsumer();
    this.loop = this.run();
  }

  /** Finishes the event in flight, hands back the ones pulled ahead, and stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.messages?.stop();
    await this.loop;
  }

  /** Reads the consumer's lag from the server into the process's gauges; `now` in epoch ms. */
  async collectLag(now = Date.now()): Promise<void> {
    const info = await this.connection.jsm.consumers.info(this.streamName, this.options.durable);
    const labels = { consumer: this.options.durable, stream: this.streamName };
    platformMetrics.consumerPending.set(labels, info.num_pending);
    platformMetrics.consumerAckPending.set(labels, info.num_ack_pending);
    platformMetrics.consumerRedelivered.set(labels, info.num_redelivered);
    platformMetrics.consumerOldestUnackedAge.set(labels, await this.oldestUnackedAge(info, now));
  }

  /**
   * Seconds since the oldest unacknowledged event was stored. A count of waiting events says
   * little when batches differ in size; their age is what a user sees as late status. The ack
   * floor is the last event acknowledged with none unacknowledged before it, so the oldest waiting
   * one is the consumer's next after it: one more request, answered within the NATS timeout.
   */
  private async oldestUnackedAge(info: ConsumerInfo, now: number): Promise<number> {
    if (info.num_pending + info.num_ack_pending === 0) return 0;
    try {
      const next = {
        seq: info.ack_floor.stream_seq + 1,
        next_by_subj: info.config.filter_subject ?? '>',
      };
      // The client types this query for direct gets only; the server answers it on the API too,
      // and direct gets would need every stream to allow them.
      const oldest = await this.connection.jsm.streams.getMessage(
        this.streamName,
        next as unknown as MsgRequest,
      );
      return Math.max(0, (now - oldest.time.getTime()) / 1000);
    } catch (error) {
      // Acknowledged between the two requests (the server answers "no message found"), or the
      // stream is gone: nothing older waits.
      if (isNotFound(error) || /no message found/i.test(String(error))) return 0;
      throw error;
    }
  }

  private count(outcome: 'ack' | 'nak' | 'term'): void {
    platformMetrics.eventsHandled.inc({ consumer: this.options.durable, outcome });
  }

  private async ensureConsumer(): Promise<void> {
    const { durable, subject, maxDeliver = 10, ackWaitMs = 30_000 } = this.options;
    const config: Partial<ConsumerConfig> = {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      filter_subject: namespacedSubject(this.connection.namespace, subject),
      max_deliver: maxDeliver,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: 1000,
    };
    const jsm = this.connection.jsm;
    try {
      await jsm.consumers.info(this.streamName, durable);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.consumers.add(this.streamName, config);
      return;
    }
    const { filter_subject, max_deliver, ack_wait, max_ack_pending } = config;
    await jsm.consumers.update(this.streamName, durable, {
      filter_subject,
      max_deliver,
      ack_wait,
      max_ack_pending,
    });
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        const consumer = await this.connection.js.consumers.get(this.streamName, this.options.durable);
        this.messages = await consumer.consume({ max_messages: this.options.batch ?? 32 });
        if (this.stopping) this.messages.stop();
        for await (const msg of this.messages) {
          // Pulled ahead but not started: another replica (or this one, restarted) takes it now.
          if (this.stopping) msg.nak();
          else await this.process(msg);
        }
        // The library ended the pull by itself (consumer or stream gone): look again shortly.
        if (!this.stopping) await sleep(1000);
      } catch (error) {
        if (this.stopping) break;
        this.logger.error(`Consuming failed, retrying in 1 s: ${String(error)}`);
        await sleep(1000);
      }
    }
  }

  private async process(msg: JsMsg): Promise<void> {
    const { subject, handle, maxDeliver = 10, retryDelayMs = defaultRetryDelay } = this.options;
    const meta: DeliveryMeta = {
      subject: msg.subject,
      msgId: msg.headers?.get('Nats-Msg-Id') || undefined,
      deliveryCount: msg.info.deliveryCount,
      streamSequence: msg.info.streamSequence,
    };
    let payload: EventPayload<S>;
    try {
      payload = eventSchemas[subject].parse(json.decode(msg.data)) as EventPayload<S>;
    } catch (error) {
      this.logger.error({ msg: 'Dropped an event that fails its schema', ...meta, error: String(error) });
      msg.term();
      this.count('term');
      return;
    }
    const parent = extractTraceContext(msg.headers, context.active());
    await context.with(parent, () =>
      tracer.startActiveSpan(
        `jetstream process ${subject}`,
        {
          kind: SpanKind.CONSUMER,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': msg.subject },
        },
        async (span) => {
          try {
            await handle(payload, meta);
            msg.ack();
            this.count('ack');
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            if (meta.deliveryCount >= maxDeliver) {
              this.logger.error({ msg: `Gave up on an event after ${maxDeliver} deliveries`, ...meta });
              msg.term();
              this.count('term');
            } else {
              this.logger.warn({
                msg: 'Handling an event failed; it will be delivered again',
                ...meta,
                error: String(error),
              });
              msg.nak(retryDelayMs(meta.deliveryCount));
              this.count('nak');
            }
          } finally {
            span.end();
          }
        },
      ),
    );
  }
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
    const nc = await connect({
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
              for (const stream of streamsOf(service)) await connection.ensureStream(stream);
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

/** Deletes every stream of a namespace (tests and throw-away stacks clean up after themselves). */
export async function deleteNamespaceStreams(namespace: string, servers: string): Promise<void> {
  const nc = await connect({ servers: servers.split(','), name: 'cleanup', timeout: 5000 });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    for (const stream of Object.values(streams)) {
      await jsm.streams.delete(namespacedName(namespace, stream.name)).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
    }
  } finally {
    await nc.close();
  }
}
