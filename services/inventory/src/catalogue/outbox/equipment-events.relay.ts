import { type EquipmentChangedEvent, events } from '@cm/contracts';
import { CONFIG, JetStreamConnection } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { type Config } from '../../config';
import { OnInventoryEvent } from '../../shared/events/inventory-event-bus';
import { type InventoryEvents } from '../../shared/events/inventory-events';
import { RelayLoop } from '../../shared/relay-loop';
import { EquipmentEventRepository } from './equipment-event.repository';

const BATCH = 500;

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

  // The equipment triggers wrote an outbox event in the transaction for equipment that has or
  // had an address (and one when its probe changed).
  @OnInventoryEvent('equipment.created')
  equipmentCreated({ equipment }: InventoryEvents['equipment.created']): void {
    if (equipment.ipAddress) this.kick();
  }

  @OnInventoryEvent('equipment.updated')
  equipmentUpdated({ addressChanged, probeChanged }: InventoryEvents['equipment.updated']): void {
    if (addressChanged || probeChanged) this.kick();
  }

  @OnInventoryEvent('import.applied')
  imported({ equipmentWritten }: InventoryEvents['import.applied']): void {
    if (equipmentWritten) this.kick();
  }

  // A delete of a room or a building cascades to its equipment.
  @OnInventoryEvent('equipment.deleted')
  @OnInventoryEvent('room.deleted')
  @OnInventoryEvent('building.deleted')
  deleted(): void {
    this.kick();
  }

  /** Publishes until the outbox is empty, a publish fails, or another replica is at it. */
  async flush(): Promise<void> {
    for (;;) {
      const round = await this.outbox.drain(BATCH, (batch) => this.publish(batch));
      if (!round?.remaining) return;
    }
  }

  /**
   * Publishes in order and answers how many of the first events were published. Events of distinct
   * equipment are sent together (a bulk import's thousands leave in a few round trips, not one
   * each); an equipment's next event waits for its previous one, and nothing after a failure is
   * counted, so one equipment's changes never overtake each other, even when re-sent next round.
   */
  private async publish(batch: EquipmentChangedEvent[]): Promise<number> {
    let published = 0;
    while (published < batch.length) {
      const seen = new Set<string>();
      const group: EquipmentChangedEvent[] = [];
      for (const event of batch.slice(published)) {
        if (seen.has(event.equipmentId)) break;
        seen.add(event.equipmentId);
        group.push(event);
      }
      const results = await Promise.allSettled(
        group.map((event) =>
          this.jetstream.publish(events.equipmentChanged, event, { msgId: event.eventId }),
        ),
      );
      const failed = results.findIndex((r) => r.status === 'rejected');
      if (failed === -1) {
        published += group.length;
        continue;
      }
      const reason = (results[failed] as PromiseRejectedResult).reason as unknown;
      this.logger.warn(`Equipment change ${group[failed].eventId} not published yet: ${String(reason)}`);
      return published + failed;
    }
    return published;
  }
}
