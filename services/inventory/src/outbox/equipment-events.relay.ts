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
import { RelayLoop } from './relay-loop';

const BATCH = 100;

/**
 * Publishes the outbox of equipment changes to JetStream: at once after a change commits
 * (`kick`), and on an interval for whatever a failed publish or a crashed replica left. The
 * event id is the message id, so publishing twice within the stream's window stores it once.
 */
@Injectable()
export class EquipmentEventsRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EquipmentEventsRelay.name);
  private readonly loop = new RelayLoop(
    () => this.flush(),
    (error) => this.logger.warn(`Publishing equipment changes failed: ${String(error)}`),
  );

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly outbox: EquipmentEventRepository,
    private readonly jetstream: JetStreamConnection,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start(this.config.INVENTORY_OUTBOX_INTERVAL_MS);
  }

  // Before the database and NATS connections close, which happens in the shutdown hooks.
  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** Publishes soon: at once, or right after the round under way (see RelayLoop). */
  kick(): void {
    this.loop.kick();
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
