import { hostname } from 'node:os';
import { type ServiceName } from '@cm/contracts';
import { type DynamicModule, type INestApplication, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type MicroserviceOptions } from '@nestjs/microservices';
import { ConfigError, type CoreConfig, type HttpPortConfig } from './config';
import { JsonLogger } from './logger';
import { natsClientOptions, natsConnectionSettings } from './nats/connection-options';
import { dispatchDirectly } from './nats/direct-dispatch';
import { NamespacedServerNats } from './nats/namespaced-transport';
import { RpcErrorFilter } from './rpc-error.filter';
import { runExitTasks, startDraining } from './shutdown';
import { closeOpenedDuringStart, startSucceeded } from './start-resources';

export interface ServiceBootstrapOptions {
  service: ServiceName;
  module: Type | DynamicModule;
  config: CoreConfig & HttpPortConfig;
  /** Close cleanly on SIGTERM/SIGINT and exit 0 (off in tests that host several apps). */
  handleSignals?: boolean;
}

/**
 * Starts one NATS microservice: its message handlers join the service's queue group
 * (replicas share the work), and an HTTP port serves probes.
 */
export async function bootstrapService({
  service,
  module,
  config,
  handleSignals = true,
}: ServiceBootstrapOptions): Promise<INestApplication> {
  const logger = new JsonLogger(service, config.LOG_LEVEL);
  const app = await NestFactory.create(module, { logger, abortOnError: false }).catch(
    async (error: unknown) => {
      await closeOpenedDuringStart(config);
      throw error;
    },
  );
  // One filter for both transports; the microservice inherits it (it is context-aware).
  app.useGlobalFilters(new RpcErrorFilter());
  const server = new NamespacedServerNats(config.CM_NAMESPACE, {
    ...natsClientOptions(config, service),
    servers: config.NATS_URL.split(','),
    queue: `${config.CM_NAMESPACE}.${service}`,
    name: `${service}@${hostname()}:${process.pid}`,
    ...natsConnectionSettings,
    gracefulShutdown: true,
    gracePeriod: 1000,
  });
  app.connectMicroservice<MicroserviceOptions>({ strategy: server }, { inheritAppConfig: true });
  dispatchDirectly(app, server);
  if (handleSignals) closeOnSignals(app, logger, config.SHUTDOWN_TIMEOUT_MS);
  try {
    await app.startAllMicroservices();
    await app.listen(config.HTTP_PORT, config.HTTP_HOST);
  } catch (error) {
    // A start-up hook that refused (say, the first administrator's) leaves connections open.
    await app.close().catch(() => undefined);
    throw error;
  }
  startSucceeded(config);
  // The port actually bound (HTTP_PORT=0 picks a free one): where probes and /metrics are.
  const address = app.getHttpServer().address() as { port: number } | null;
  logger.log({
    msg: `${service} ready`,
    namespace: config.CM_NAMESPACE,
    httpPort: address?.port ?? config.HTTP_PORT,
  });
  return app;
}

/**
 * Closes the app (Nest's shutdown hooks close NATS subscriptions, then connections), then runs the
 * exit tasks, such as sending the last spans: they end only once the app has closed.
 */
export async function shutDown(app: INestApplication): Promise<void> {
  try {
    await app.close();
  } finally {
    await runExitTasks();
  }
}

/**
 * Reports not ready, goes on serving for `delayMs`, then shuts down. Behind a Service and an
 * ingress controller the pod leaves their endpoints only some time after the signal: closing at
 * once would refuse the requests still sent to it meanwhile.
 */
export async function drainAndShutDown(app: INestApplication, delayMs = 0): Promise<void> {
  startDraining();
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  await shutDown(app);
}

/**
 * On SIGTERM or SIGINT: stop taking work (after `delayMs` of serving on while not ready), let what
 * is in flight finish and shut down, and exit 0; exit 1 if all that takes longer than `timeoutMs`.
 */
export function closeOnSignals(
  app: INestApplication,
  logger: JsonLogger,
  timeoutMs: number,
  delayMs = 0,
): void {
  let closing = false;
  const close = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.log(
      delayMs > 0
        ? `${signal} received: serving ${delayMs} ms more while not ready, then finishing work in flight`
        : `${signal} received: finishing work in flight`,
    );
    const timer = setTimeout(() => {
      logger.error(`Shutdown took longer than ${timeoutMs} ms; exiting`);
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    drainAndShutDown(app, delayMs).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(error instanceof Error ? error : String(error));
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
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
