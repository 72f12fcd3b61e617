import { Module } from '@nestjs/common';
import { PingModule } from '../ping/ping.module';
import { TargetsModule } from '../targets/targets.module';
import { MetricsController } from './metrics.controller';
import { MonitorMetrics } from './monitor-metrics';

@Module({
  imports: [PingModule, TargetsModule],
  controllers: [MetricsController],
  providers: [MonitorMetrics],
  exports: [MonitorMetrics],
})
export class MetricsModule {}
