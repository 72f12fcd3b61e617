import {
  CONFIG,
  DatabaseModule,
  HealthService,
  MetricsService,
  natsClientOptions,
  RpcClient,
} from '@cm/platform';
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
        { provide: CONFIG, useValue: config },
        HealthService,
        MetricsService,
        {
          provide: RpcClient,
          useFactory: () =>
            new RpcClient({
              namespace: config.CM_NAMESPACE,
              servers: config.NATS_URL,
              timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
              name: 'gateway',
              connection: natsClientOptions(config, 'gateway'),
            }),
        },
        ReadinessService,
        SessionStore,
        MetricsServer,
        IdempotencyKeyRepository,
        IdempotencyService,
      ],
      exports: [CONFIG, HealthService, MetricsService, RpcClient, SessionStore, IdempotencyService],
    };
  }
}
