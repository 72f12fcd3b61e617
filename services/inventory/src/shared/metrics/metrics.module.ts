import { MetricsService } from '@cm/platform';
import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InventoryMetrics } from './inventory-metrics';

/** Inventory's own metrics; the features that feed them register their scrape-time readers. */
@Global()
@Module({ providers: [InventoryMetrics], exports: [InventoryMetrics] })
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly metrics: InventoryMetrics,
    private readonly service: MetricsService,
  ) {}

  onModuleInit(): void {
    this.service.addRegistry(this.metrics.registry);
  }
}
