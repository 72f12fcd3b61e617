import { DatabaseModule, JetStreamModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { BuildingsModule } from './catalogue/buildings/buildings.module';
import { type Config } from './config';
import { EquipmentModule } from './catalogue/equipment/equipment.module';
import { HistoryModule } from './status/history/history.module';
import { ImportModule } from './catalogue/import/import.module';
import { LiveModule } from './shared/live/live.module';
import { MaintenanceModule } from './status/maintenance/maintenance.module';
import { MetricsModule } from './shared/metrics/metrics.module';
import { migrations } from './migrations';
import { MonitoringStateModule } from './status/monitoring/monitoring-state.module';
import { NotificationsModule } from './alerting/notifications/notifications.module';
import { OutboxModule } from './catalogue/outbox/outbox.module';
import { ProblemsModule } from './status/problems/problems.module';
import { ReportsModule } from './status/reports/reports.module';
import { RoomsModule } from './catalogue/rooms/rooms.module';
import { SearchModule } from './catalogue/search/search.module';
import { StatusModule } from './status/checks/status.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'inventory', config }),
        DatabaseModule.forService({ service: 'inventory', entities: [], migrations }),
        JetStreamModule.forService('inventory'),
        MetricsModule,
        OutboxModule,
        LiveModule,
        BuildingsModule,
        RoomsModule,
        EquipmentModule,
        StatusModule,
        ReportsModule,
        HistoryModule,
        ProblemsModule,
        SearchModule,
        MaintenanceModule,
        NotificationsModule,
        ImportModule,
        MonitoringStateModule,
      ],
    };
  }
}
