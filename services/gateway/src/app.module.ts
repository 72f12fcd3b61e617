import { DatabaseModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { type Config } from './config';
import { DocsController } from './docs/docs.controller';
import { EventsModule } from './events/events.module';
import { HealthController } from './health/health.controller';
import { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository';
import { IdempotencyService } from './idempotency/idempotency.service';
import { ReadinessService } from './health/readiness.service';
import { InventoryModule } from './inventory/inventory.module';
import { MediaModule } from './media/media.module';
import { MetricsServer } from './metrics/metrics-server';
import { migrations } from './migrations';
import { MonitoringModule } from './monitoring/monitoring.module';
import { SessionStore } from './session/session-store';

@Global()
@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forGateway(config),
        DatabaseModule.forService({ service: 'gateway', entities: [], migrations }),
        AuthModule,
        AuditModule,
        MediaModule,
        InventoryModule,
        MonitoringModule,
        EventsModule,
      ],
      controllers: [HealthController, DocsController],
      providers: [
        ReadinessService,
        SessionStore,
        MetricsServer,
        IdempotencyKeyRepository,
        IdempotencyService,
      ],
      exports: [SessionStore, IdempotencyService],
    };
  }
}
