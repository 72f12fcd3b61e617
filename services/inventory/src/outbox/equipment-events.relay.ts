import { events } from '@cm/contracts';
import { CONFIG, JetStreamConnection } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { type Config } from '../config';
import { EquipmentEventRepository } from './equipment-event.repository';

const BATCH = 100;

/**
 * Publishes the outbox of equipment changes to JetStream: at once after a change commits
 * (`kick`), and on an interval for whatever a failed publish or a crashed replica left. The
 * event id is the message id, so publishing twice within the stream's window stores it once.
 */
@Injectable()
export class EquipmentEventsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EquipmentEventsRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly outbox: EquipmentEventRepository,
    private readonly jetstream: JetStreamConnection,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.kick(), this.config.INVENTORY_OUTBOX_INTERVAL_MS);
    this.kick();
  }

  // Before the database and NATS connections close, which happens in the shutdown hooks.
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * Starts a flush, or asks the running one to look again when it ends: a change that commits
   * after the running round read the outbox is not in that round, and is left for the next.
   */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.flush()
      .catch((error: unknown) => this.logger.warn(`Publishing equipment changes failed: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Publishes until the outbox is empty, a publish fails, or another replica is at it. */
  async flush(): Promise<void> {
    for (;;) {
      const round = await this.outbox.drain(BATCH, async (batch) => {
        let published = 0;
        for (const event of batch) {
          try {
            await this.jetstream.publish(events.equipmentChanged, event, { msgId: event.eventId });
          } catch (error) {
            this.logger.warn(`Equipment change ${event.eventId} not published yet: ${String(error)}`);
            break;
          }
          published++;
        }
        return published;
      });
      if (!round?.remaining) return;
    }
  }
}
