import { JsonLogger, parseEnv, runMain } from '@cm/platform';
import { configSchema } from './config';
import { createGateway } from './gateway';

export function main(): void {
  runMain('gateway', async () => {
    const config = parseEnv(configSchema);
    const app = await createGateway(config);
    await app.listen(config.PORT, config.HOST);
    const url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`;
    new JsonLogger('gateway', config.LOG_LEVEL).log({ msg: `Classroom Monitor is at ${url}`, url });
  });
}
