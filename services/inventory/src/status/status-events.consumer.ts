import { events, type StatusEvent, streams } from '@cm/contracts';
import { CONFIG, type DeliveryMeta, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../config';
import { StatusRepository } from './status.repository';

/** Durable name: replicas of inventory share it, so each status event is persisted by one of them. */
export const STATUS_CONSUMER = 'inventory-status';

/**
 * Persists the monitor's status events. The event is acknowledged only after its transaction
 * commits; a failure leaves it to be delivered again, which the event id makes harmless.
 */
@Injectable()
export class StatusEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(StatusEventsConsumer.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly jetstream: JetStreamConnection,
    private readonly status: StatusRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jetstream.consume({
      stream: streams.status,
      durable: STATUS_CONSUMER,
      subject: events.statusChecked,
      ackWaitMs: this.config.INVENTORY_STATUS_ACK_WAIT_MS,
      maxDeliver: this.config.INVENTORY_STATUS_MAX_DELIVER,
      handle: (event, meta) => this.handle(event, meta),
    });
  }

  async handle(event: StatusEvent, meta: DeliveryMeta): Promise<void> {
    const outcome = await this.status.recordCheck(event);
    if (outcome === 'unknown-equipment') {
      // Deleted since the monitor listed it: nothing to keep, and nothing to retry.
      this.logger.debug?.(`Dropped a status event for unknown equipment ${event.equipmentId}`);
    } else if (outcome === 'duplicate' && meta.deliveryCount === 1) {
      this.logger.debug?.(`Status event ${event.eventId} was already recorded`);
    }
  }
}
