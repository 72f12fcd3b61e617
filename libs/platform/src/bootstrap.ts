import { hostname } from 'node:os';
import { type ServiceName } from '@cm/contracts';
import { type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions } from '@nestjs/microservices';
import { ConfigError, type CoreConfig, type HttpPortConfig } from './config';
import { JsonLogger } from './logger';
import { NamespacedServerNats } from './nats/namespaced-transport';
import { RpcErrorFilter } from './rpc-error.filter';

export interface ServiceBootstrapOptions {
  service: ServiceName;
  module: Type | DynamicModule;
  config: CoreConfig & HttpPortConfig;
}

/**
 * Starts one NATS microservice: its message handlers join the service's queue group
 * (replicas share the work), and an HTTP port serves probes.
 */
export async function bootstrapService({ service, module, config }: ServiceBootstrapOptions): Promise<INestApplication> {
  const logger = new JsonLogger(service, config.LOG_LEVEL);
  const app = await NestFactory.create(module, { logger, abortOnError: false });
  const microservice = app.connectMicroservice<MicroserviceOptions>({
    strategy: new NamespacedServerNats(config.CM_NAMESPACE, {
      servers: config.NATS_URL.split(','),
      queue: `${config.CM_NAMESPACE}.${service}`,
      name: `${service}@${hostname()}:${process.pid}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      gracefulShutdown: true,
      gracePeriod: 1000,
    }),
  });
  microservice.useGlobalFilters(new RpcErrorFilter());
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  logger.log({ msg: `${service} ready`, namespace: config.CM_NAMESPACE, httpPort: config.HTTP_PORT });
  return app;
}

/** Runs a process entry point; a configuration problem exits 1 with every bad variable listed. */
export function runMain(service: string, main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    const logger = new JsonLogger(service);
    if (error instanceof ConfigError) {
      logger.error({ msg: error.message, problems: error.problems });
    } else {
      logger.error(error instanceof Error ? error : String(error));
    }
    process.exit(1);
  });
}
