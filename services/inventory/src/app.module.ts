import { DatabaseModule, JetStreamModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { AlertingModule } from './alerting/alerting.module';
import { CatalogueModule } from './catalogue/catalogue.module';
import { type Config } from './config';
import { migrations } from './migrations';
import { ReadinessModule } from './readiness/readiness.module';
import { SchedulesModule } from './schedules/schedules.module';
import { EventsModule } from './shared/events/events.module';
import { LiveModule } from './shared/live/live.module';
import { MetricsModule } from './shared/metrics/metrics.module';
import { StatusModule } from './status/status.module';

/** Inventory's three contexts (docs/architecture.md), on what they share. */
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
        EventsModule,
        LiveModule,
        CatalogueModule,
        StatusModule,
        AlertingModule,
        SchedulesModule,
        ReadinessModule,
      ],
    };
  }
}
