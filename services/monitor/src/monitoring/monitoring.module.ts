import { MetricsService } from '@cm/platform';
import { Module, type OnModuleInit } from '@nestjs/common';
import { ClusterModule } from '../cluster/cluster.module';
import { Membership } from '../cluster/membership';
import { MetricsModule } from '../metrics/metrics.module';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { PingModule } from '../ping/ping.module';
import { ProbeScheduler } from '../probes/probe-scheduler';
import { ProbeTargetList } from '../probes/probe-target-list';
import { ProbesModule } from '../probes/probes.module';
import { RoomCheckService } from '../room-check/room-check.service';
import { ResultsRecorded } from '../sweep/results-recorded';
import { SweepCoordinator } from '../sweep/sweep-coordinator';
import { SweepScheduler } from '../sweep/sweep-scheduler';
import { SweepWorker } from '../sweep/sweep-worker';
import { TargetsModule } from '../targets/targets.module';
import { MonitoringMessageController } from './monitoring.message.controller';
import { MonitoringService } from './monitoring.service';
import { MonitoringState } from './monitoring-state';
import { ReplicaLifecycle } from './replica.lifecycle';

/**
 * Start, stop, status and check; the sweeps: scheduling, splitting over replicas, pinging a share;
 * the deep probes of this replica's share while monitoring runs.
 */
@Module({
  imports: [ClusterModule, PingModule, TargetsModule, MetricsModule, ProbesModule],
  controllers: [MonitoringMessageController],
  providers: [
    MonitoringState,
    MonitoringService,
    SweepCoordinator,
    ResultsRecorded,
    SweepScheduler,
    SweepWorker,
    ProbeTargetList,
    ProbeScheduler,
    ReplicaLifecycle,
    RoomCheckService,
  ],
})
export class MonitoringModule implements OnModuleInit {
  constructor(
    private readonly metrics: MonitorMetrics,
    private readonly service: MetricsService,
    private readonly state: MonitoringState,
    private readonly membership: Membership,
  ) {}

  onModuleInit(): void {
    this.service.addCollector(async () => {
      const [status, last, members] = await Promise.all([
        this.state.get(),
        this.state.lastSweep(),
        this.membership.live(),
      ]);
      this.metrics.recordState({ ...status, lastSweepAt: last?.firedAt });
      // Unlike cm_monitor_members (the leader's, at its last sweep), current without a sweep.
      this.metrics.liveMembers.set(members.length);
    });
  }
}
