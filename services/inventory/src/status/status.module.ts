import { Module } from '@nestjs/common';
import { ChecksModule } from './checks/checks.module';
import { HealthModule } from './health/health.module';
import { HistoryModule } from './history/history.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { MonitoringStateModule } from './monitoring/monitoring-state.module';
import { ProblemsModule } from './problems/problems.module';
import { ReportsModule } from './reports/reports.module';

/**
 * What the equipment is doing: the monitor's checks and probe readings recorded, their history
 * and reports, the problems, the maintenance windows, and the monitor's stored running state.
 */
@Module({
  imports: [
    ChecksModule,
    HealthModule,
    ReportsModule,
    HistoryModule,
    ProblemsModule,
    MaintenanceModule,
    MonitoringStateModule,
  ],
})
export class StatusModule {}
