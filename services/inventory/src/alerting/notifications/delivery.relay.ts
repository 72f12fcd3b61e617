import { CONFIG, type Counter } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Config } from '../../config';
import { ChannelSender, SendError } from './channel-sender';
import { afterFailure, type RetryPolicy, TEST_KIND } from './delivery-policy';
import { InventoryMetrics } from '../../shared/metrics/inventory-metrics';
import { RelayLoop } from '../../shared/relay-loop';
import { type ClaimedDelivery, type DeliveryOutcome, DeliveryRepository } from './delivery.repository';

const BATCH = 20;

/**
 * Sends the `deliveries` outbox: at once after a delivery is queued here (`kick`), and on an
 * interval for retries, deliveries queued by other replicas and leases left by a dead one. Each
 * replica claims what it sends with SKIP LOCKED, so a delivery goes out from one replica.
 */
@Injectable()
export class DeliveryRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DeliveryRelay.name);
  private readonly loop = new RelayLoop(
    () => this.flush(),
    (error) => this.logger.warn(`Sending notifications failed: ${String(error)}`),
  );
  private readonly sending = new Set<Promise<unknown>>();
  private readonly policy: RetryPolicy;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly deliveries: DeliveryRepository,
    private readonly sender: ChannelSender,
    private readonly metrics: InventoryMetrics,
  ) {
    this.policy = {
      baseMs: config.ALERTS_RETRY_BASE_MS,
      maxMs: config.ALERTS_RETRY_MAX_MS,
      maxAttempts: config.ALERTS_MAX_ATTEMPTS,
    };
  }

  /**
   * How long a claim holds: a send ends within the timeout, so a lease this long has run out only
   * when its replica died (or lost the database) mid-send.
   */
  get leaseMs(): number {
    return this.config.ALERTS_SEND_TIMEOUT_MS * 2 + 10_000;
  }

  onApplicationBootstrap(): void {
    this.loop.start(this.config.ALERTS_RELAY_INTERVAL_MS);
  }

  // Before the database closes: sends under way record their outcome (each ends within its timeout).
  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await Promise.allSettled([...this.sending]);
  }

  /** Sends what is due soon: at once, or right after the round under way. */
  kick(): void {
    this.loop.kick();
  }

  /** Sends what is due, a batch at a time, until nothing more is. */
  async flush(): Promise<void> {
    for (;;) {
      const claimed = await this.deliveries.claimDue(BATCH, this.leaseMs);
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      if (claimed.length < BATCH) return;
    }
  }

  /** Sends one claimed delivery and records how it went; never throws. */
  deliver(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    const work = this.attempt(delivery).then(async (outcome) => {
      const recorded = await this.deliveries.record(delivery.id, delivery.attempts, outcome);
      if (!recorded)
        this.logger.warn(`Delivery ${delivery.id}: its lease ran out before the outcome was recorded`);
      return outcome;
    });
    const tracked = work.catch((error: unknown) => {
      this.logger.warn(`Delivery ${delivery.id}: the outcome was not recorded: ${String(error)}`);
    });
    this.sending.add(tracked);
    void tracked.finally(() => this.sending.delete(tracked));
    return work;
  }

  private async attempt(delivery: ClaimedDelivery): Promise<DeliveryOutcome> {
    if (!delivery.channel.enabled && delivery.kind !== TEST_KIND) {
      return { state: 'failed', error: 'The channel was disabled before this was sent' };
    }
    const limit = delivery.kind === TEST_KIND ? 1 : this.policy.maxAttempts;
    if (delivery.attempts > limit) {
      // A lease that ran out on the last attempt: its replica died mid-send.
      this.counted(delivery, this.metrics.deliveriesGivenUp);
      return { state: 'failed', error: `Gave up after ${limit} attempts (the last one did not finish)` };
    }
    try {
      await this.sender.send(delivery);
      return { state: 'sent' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retryAfter = error instanceof SendError ? error.retryAfterMs : null;
      const outcome = afterFailure(delivery.kind, delivery.attempts, message, this.policy, retryAfter);
      this.counted(delivery, this.metrics.deliveryFailures);
      if (outcome.state === 'failed') this.counted(delivery, this.metrics.deliveriesGivenUp);
      return outcome;
    }
  }

  // The test button's answer goes to the person who pressed it: only alerts' deliveries are an
  // operator's concern.
  private counted(delivery: ClaimedDelivery, counter: Counter<'channel_type'>): void {
    if (delivery.kind !== TEST_KIND) counter.inc({ channel_type: delivery.channel.type });
  }
}
