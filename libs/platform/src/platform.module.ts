import { messages, type NatsPrincipal, type ServiceName } from '@cm/contracts';
import { type DynamicModule, type Provider } from '@nestjs/common';
import { CONFIG, type CoreConfig } from './config';
import { HealthHttpController, HealthService, healthMessageController } from './health';
import { MetricsHttpController } from './metrics/metrics-http.controller';
import { MetricsService } from './metrics/metrics.service';
import { natsClientOptions } from './nats/connection-options';
import { RpcClient } from './nats/rpc-client';

export interface PlatformModuleOptions {
  service: ServiceName;
  config: CoreConfig;
}

/**
 * What every service's root module imports: its configuration, health (NATS pattern and
 * HTTP probes), metrics at /metrics and an RPC client for calling other services.
 */
export class PlatformModule {
  static forService({ service, config }: PlatformModuleOptions): DynamicModule {
    return {
      ...PlatformModule.providing(service, config),
      controllers: [
        healthMessageController(messages[service].health),
        HealthHttpController,
        MetricsHttpController,
      ],
    };
  }

  /**
   * The same for the gateway, without the endpoints: it answers health within the API
   * (`/api/health`, `/readyz`) and serves metrics on a port of its own.
   */
  static forGateway(config: CoreConfig): DynamicModule {
    return PlatformModule.providing('gateway', config);
  }

  private static providing(principal: NatsPrincipal, config: CoreConfig): DynamicModule {
    const providers: Provider[] = [
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
            name: `${principal}-client`,
            connection: natsClientOptions(config, principal),
          }),
      },
    ];
    return {
      module: PlatformModule,
      global: true,
      providers,
      exports: [CONFIG, HealthService, MetricsService, RpcClient],
    };
  }
}
