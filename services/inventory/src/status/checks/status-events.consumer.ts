import { durableConsumers, events, type StatusMessage, statusCheckSchema, streams } from '@cm/contracts';
import { CONFIG, type DeliveryMeta, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../../config';
import { recordHalving } from '../../shared/database/halving';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { CHECK_ALERTS, type CheckAlerts, noAlerts } from './check-alerts';
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
 * nothing: each check is recognised by its sweep and its time (see `timeline.ts`).
 */
@Injectable()
export class StatusEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(StatusEventsConsumer.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly jetstream: JetStreamConnection,
    private readonly status: StatusRepository,
    private readonly live: LiveEventsPublisher,
    @Inject(CHECK_ALERTS) private readonly alerts: CheckAlerts,
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
    const { outcome, changes, alerts } = await this.record(checks);
    // Committed: open screens hear of it, the relay sends what is due. A live event NATS refuses is
    // held back and sent later (LiveEventsPublisher); it never makes the message fail.
    if (changes.length) await this.live.statusChanged(changes);
    this.alerts.announce(alerts);
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
  private record(checks: Check[]): Promise<BatchResult> {
    return recordHalving(
      checks,
      (part) => this.status.recordChecks(part),
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
