import { MetricsService } from '@cm/platform';
import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InventoryMetrics } from '../../shared/metrics/inventory-metrics';
import { EquipmentEventRepository } from './equipment-event.repository';
import { EquipmentEventsRelay } from './equipment-events.relay';

/** Equipment change events: written by a trigger in the changing transaction, published after. */
@Global()
@Module({ providers: [EquipmentEventRepository, EquipmentEventsRelay], exports: [EquipmentEventsRelay] })
export class OutboxModule implements OnModuleInit {
  constructor(
    private readonly outbox: EquipmentEventRepository,
    private readonly metrics: InventoryMetrics,
    private readonly service: MetricsService,
  ) {}

  onModuleInit(): void {
    this.service.addCollector(async () => {
      const { events, oldestAgeSeconds } = await this.outbox.backlog();
      this.metrics.outboxEvents.set(events);
      this.metrics.outboxOldestAge.set(oldestAgeSeconds);
    });
  }
}
