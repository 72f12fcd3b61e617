import { MetricsService } from '@cm/platform';
import { Module, type OnModuleInit } from '@nestjs/common';
import { PingModule } from '../ping/ping.module';
import { Pinger } from '../ping/pinger';
import { TargetsModule } from '../targets/targets.module';
import { TargetList } from '../targets/target-list';
import { MonitorMetrics } from './monitor-metrics';
import { ProbeMetrics } from './probe-metrics';

/** The monitor's own metrics, served with the platform's at /metrics on the replica's HTTP port. */
@Module({
  imports: [PingModule, TargetsModule],
  providers: [MonitorMetrics, ProbeMetrics],
  exports: [MonitorMetrics, ProbeMetrics],
})
export class MetricsModule implements OnModuleInit {
  constructor(
    private readonly metrics: MonitorMetrics,
    private readonly probeMetrics: ProbeMetrics,
    private readonly service: MetricsService,
    private readonly pinger: Pinger,
    private readonly targets: TargetList,
  ) {}

  onModuleInit(): void {
    this.service.addRegistry(this.metrics.registry);
    this.service.addRegistry(this.probeMetrics.registry);
    this.service.addCollector(() => {
      this.metrics.pingsInFlight.set(this.pinger.inFlight);
      this.metrics.targetsKnown.set(this.targets.size);
    });
  }
}
