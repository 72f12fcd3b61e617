import { Controller, Get, Header } from '@nestjs/common';
import { Pinger } from '../ping/pinger';
import { TargetList } from '../targets/target-list';
import { MonitorMetrics } from './monitor-metrics';

/** Prometheus text on the replica's HTTP port, beside /healthz and /readyz. */
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: MonitorMetrics,
    private readonly pinger: Pinger,
    private readonly targets: TargetList,
  ) {}

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): string {
    this.metrics.pingsInFlight.set(this.pinger.inFlight);
    this.metrics.targetsKnown.set(this.targets.size);
    return this.metrics.registry.render();
  }
}
