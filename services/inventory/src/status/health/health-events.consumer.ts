import { durableConsumers, events, type ProbeBatch, type ProbeReading, streams } from '@cm/contracts';
import { CONFIG, type DeliveryMeta, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Config } from '../../config';
import { recordHalving } from '../../shared/database/halving';
import { LiveEventsPublisher } from '../../shared/live/live-events.publisher';
import { type HealthBatchResult, HealthService } from './health.service';

/** Durable name: replicas of inventory share it, so each batch of readings is recorded by one of them. */
export const HEALTH_CONSUMER = durableConsumers.inventoryHealth;

/**
 * Records the monitor's probe readings (`monitor.health.probed`): a batch is one transaction,
 * acknowledged only after it commits (the platform acks when `handle` returns). A batch delivered
 * again changes nothing: each reading no newer than its device's record is skipped.
 */
@Injectable()
export class HealthEventsConsumer implements OnApplicationBootstrap {
  private readonly logger = new Logger(HealthEventsConsumer.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly jetstream: JetStreamConnection,
    private readonly health: HealthService,
    private readonly live: LiveEventsPublisher,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jetstream.consume({
      stream: streams.health,
      durable: HEALTH_CONSUMER,
      subject: events.healthProbed,
      ackWaitMs: this.config.INVENTORY_STATUS_ACK_WAIT_MS,
      maxDeliver: this.config.INVENTORY_STATUS_MAX_DELIVER,
      handle: async (batch, meta) => {
        await this.handle(batch, meta);
      },
    });
  }

  async handle(batch: ProbeBatch, meta: DeliveryMeta): Promise<HealthBatchResult> {
    // The batch passed its schema on delivery (the platform terminates one that fails it).
    const result = await this.record(batch.readings);
    // Committed: open screens refetch the equipment whose health state changed (and their room's
    // and building's fault counts). A live event NATS refuses is held back and sent later.
    for (const { equipmentId: id, roomId, buildingId } of result.changes)
      this.live.inventoryChanged({ kind: 'equipment', action: 'updated', id, roomId, buildingId });
    if (result.unknownEquipment > 0)
      this.logger.debug?.({
        msg: `Dropped ${result.unknownEquipment} reading(s) of equipment that no longer exists`,
        batchId: batch.batchId,
        ...meta,
      });
    return result;
  }

  /** One transaction for the batch; a reading the database refuses for its data is found and dropped. */
  private record(readings: ProbeReading[]): Promise<HealthBatchResult> {
    return recordHalving(
      readings,
      (part) => this.health.record(part),
      (a, b) => ({
        recorded: a.recorded + b.recorded,
        unknownEquipment: a.unknownEquipment + b.unknownEquipment,
        stale: a.stale + b.stale,
        changes: [...a.changes, ...b.changes],
      }),
      (reading, error) => {
        this.logger.error({
          msg: 'Dropped a probe reading the database refuses',
          equipmentId: reading?.equipmentId,
          error: String(error),
        });
        return { recorded: 0, unknownEquipment: 0, stale: 0, changes: [] };
      },
    );
  }
}
