import { MetricsService } from '@cm/platform';
import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { InventoryMetrics } from '../metrics/inventory-metrics';
import { LiveEventsPublisher } from './live-events.publisher';

/** Live events for open screens, published after each commit. */
@Global()
@Module({ providers: [LiveEventsPublisher], exports: [LiveEventsPublisher] })
export class LiveModule implements OnModuleInit {
  constructor(
    private readonly publisher: LiveEventsPublisher,
    private readonly metrics: InventoryMetrics,
    private readonly service: MetricsService,
  ) {}

  onModuleInit(): void {
    this.service.addCollector(() => this.metrics.liveHeld.set(this.publisher.held));
  }
}
