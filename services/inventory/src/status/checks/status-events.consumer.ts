import {
  durableConsumers,
  events,
  namespacedName,
  type StatusMessage,
  statusCheckSchema,
  streams,
} from '@cm/contracts';
import {
  CONFIG,
  defaultStreamLimits,
  type DeliveryMeta,
  JetStreamConnection,
  type StreamDef,
} from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../../config';
import { recordHalving } from '../../shared/database/halving';
import { InventoryEventBus } from '../../shared/events/inventory-event-bus';
import { noAlerts } from './check-alerts';
import {
  type BatchOutcome,
  type BatchResult,
  type Check,
  emptyOutcome,
  StatusRepository,
} from './status.repository';

/** Durable name: replicas of inventory share it, so each status message is persisted by one of them. */
export const STATUS_CONSUMER = durableConsumers.inventoryStatus;

/**
 * Persists the monitor's status messages: a batch of checks (or, from before batches, a single
 * check) is one transaction, acknowledged only after it commits. A redelivered message changes
 * nothing: the message is recognised by its id, kept with its commit until the acknowledgement
 * floor passes it, and each check by its sweep and its time (see `timeline.ts`).
 */
@Injectable()
export class StatusEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(StatusEventsConsumer.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly jetstream: JetStreamConnection,
    private readonly status: StatusRepository,
    private readonly events: InventoryEventBus,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jetstream.consume({
      stream: streams.status,
      durable: STATUS_CONSUMER,
      subject: events.statusChecked,
      ackWaitMs: this.config.INVENTORY_STATUS_ACK_WAIT_MS,
      maxDeliver: this.config.INVENTORY_STATUS_MAX_DELIVER,
      handle: async (message, meta) => {
        await this.handle(message, meta);
      },
    });
  }

  async handle(message: StatusMessage, meta: DeliveryMeta): Promise<BatchOutcome> {
    const checks = this.checksOf(message, meta);
    const { outcome } = await this.record(checks, meta);
    if (outcome['unknown-equipment'] > 0) {
      // Deleted since the monitor listed it: nothing to keep, and nothing to retry.
      this.logger.debug?.(
        `Dropped ${outcome['unknown-equipment']} check(s) of equipment that no longer exists`,
      );
    }
    if (outcome['too-late'] > 0) {
      this.logger.warn({
        msg: 'Counted checks too late to place on their equipment timeline (older than every observation kept)',
        count: outcome['too-late'],
        ...meta,
      });
    }
    return outcome;
  }

  /**
   * Forgets the handled messages the stream will not deliver again (see `claimMessage`); answers
   * how many went.
   */
  async forgetHandled(now = Date.now()): Promise<number> {
    const info = await this.jetstream.jsm.consumers.info(
      namespacedName(this.jetstream.namespace, streams.status.name),
      STATUS_CONSUMER,
    );
    const stream: StreamDef = streams.status;
    const maxAgeMs = stream.maxAgeMs ?? defaultStreamLimits.maxAgeMs;
    return this.status.forgetMessages(info.ack_floor.stream_seq, new Date(now - maxAgeMs));
  }

  /** Each check of a batch is judged on its own: one malformed check does not drop the others. */
  private checksOf(message: StatusMessage, meta: DeliveryMeta): Check[] {
    const raw = 'eventId' in message ? [message] : message.checks;
    const checks: Check[] = [];
    for (const item of raw) {
      const parsed = statusCheckSchema.safeParse(item);
      if (!parsed.success) {
        this.logger.error({
          msg: 'Dropped a check that fails its schema',
          ...meta,
          error: parsed.error.message,
        });
        continue;
      }
      const c = parsed.data;
      checks.push({
        equipmentId: c.equipmentId,
        sweepId: message.sweepId,
        status: c.status,
        checkedAt: Date.parse(c.checkedAt),
        rttMs: c.rttMs,
        pings: c.results.length,
        pingsAnswered: c.results.filter((r) => r.alive).length,
      });
    }
    return checks;
  }

  /**
   * One transaction for the whole batch. When the database refuses it for its data (not for
   * being unreachable), the batch is halved until the check at fault is found and dropped; the
   * halves already committed are recognised as duplicates if the message comes again.
   */
  private record(checks: Check[], meta: DeliveryMeta): Promise<BatchResult> {
    return recordHalving(
      checks,
      // Each part that commits tells open screens and the relay (`status.changed`,
      // `alerts.changed`); a subscriber's failure (a live event NATS refuses is held back and sent
      // later) never makes the message fail.
      (part) =>
        this.events.transaction(this.status, async (tx, events) => {
          // Only the whole message is marked: of a halved one, a part committed before a crash is
          // recognised check by check when it comes again.
          const messageId = part === checks ? meta.msgId : undefined;
          if (
            messageId !== undefined &&
            !(await this.status.claimMessage(tx, messageId, meta.streamSequence))
          )
            return alreadyRecorded(part.length);
          const result = await this.status.recordChecks(tx, part);
          if (result.changes.length) await events.emit('status.changed', { changes: result.changes });
          await events.emit('alerts.changed', result.alerts);
          return result;
        }),
      (a, b) => {
        const sum = emptyOutcome();
        for (const key of Object.keys(sum) as (keyof BatchOutcome)[])
          sum[key] = a.outcome[key] + b.outcome[key];
        return {
          outcome: sum,
          changes: [...a.changes, ...b.changes],
          alerts: {
            queued: a.alerts.queued + b.alerts.queued,
            rooms: [...a.alerts.rooms, ...b.alerts.rooms],
          },
        };
      },
      (check, error) => {
        this.logger.error({
          msg: 'Dropped a check the database refuses',
          equipmentId: check?.equipmentId,
          sweepId: check?.sweepId,
          error: String(error),
        });
        return { outcome: emptyOutcome(), changes: [], alerts: noAlerts() };
      },
    );
  }
}

/** A message whose checks an earlier delivery committed: each of them a duplicate, nothing to tell. */
function alreadyRecorded(checks: number): BatchResult {
  return { outcome: { ...emptyOutcome(), duplicate: checks }, changes: [], alerts: noAlerts() };
}
