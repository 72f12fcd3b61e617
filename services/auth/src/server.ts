import { bootstrapService, parseEnv, runMain } from '@cm/platform';
import { AppModule } from './app.module';
import { configSchema } from './config';

export function main(): void {
  runMain('auth', async () => {
    const config = parseEnv(configSchema);
    await bootstrapService({ service: 'auth', module: AppModule.forRoot(config), config });
  });
}
