import { type AddressInfo } from 'node:net';
import { closeOnSignals, JsonLogger, parseEnv, runMain } from '@cm/platform';
import { configSchema } from './config';
import { createGateway } from './gateway';
import { MetricsServer } from './metrics/metrics-server';

export function main(): void {
  runMain('gateway', async () => {
    const config = parseEnv(configSchema);
    const logger = new JsonLogger('gateway', config.LOG_LEVEL);
    const app = await createGateway(config);
    await app.listen(config.PORT, config.HOST);
    closeOnSignals(app, logger, config.SHUTDOWN_TIMEOUT_MS, config.SHUTDOWN_DELAY_MS);
    // The port bound, so PORT=0 (the system picks a free one) still says where it is.
    const { port } = app.getHttpServer().address() as AddressInfo;
    const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
    logger.log({ msg: `Classroom Monitor is at ${url}`, url, metricsPort: app.get(MetricsServer).port });
  });
}
