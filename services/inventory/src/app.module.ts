import { DatabaseModule, JetStreamModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { BuildingsModule } from './buildings/buildings.module';
import { type Config } from './config';
import { EquipmentModule } from './equipment/equipment.module';
import { HistoryModule } from './history/history.module';
import { ImportModule } from './import/import.module';
import { LiveModule } from './live/live.module';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { MetricsModule } from './metrics/metrics.module';
import { migrations } from './migrations';
import { MonitoringStateModule } from './monitoring/monitoring-state.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OutboxModule } from './outbox/outbox.module';
import { ProblemsModule } from './problems/problems.module';
import { ReportsModule } from './reports/reports.module';
import { RoomsModule } from './rooms/rooms.module';
import { SearchModule } from './search/search.module';
import { StatusModule } from './status/status.module';

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
