import {
  type EventPayload,
  eventSchemas,
  type EventSubject,
  namespacedName,
  namespacedSubject,
} from '@cm/contracts';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  type ConsumerConfig,
  type ConsumerInfo,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  JSONCodec,
  type MsgRequest,
  nanos,
} from 'nats';
import { platformMetrics } from '../metrics/platform-metrics';
import { ensureStream, isNotFound, type StreamDef } from './streams';
import { extractTraceContext } from './trace-headers';

const tracer = trace.getTracer('@cm/platform/jetstream');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const json = JSONCodec<unknown>();

/** What a consumer uses of its JetStreamConnection (which creates it). */
export interface ConsumerConnection {
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly namespace: string;
  readonly replicas: number;
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
    private readonly connection: ConsumerConnection,
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
