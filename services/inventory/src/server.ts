import { bootstrapService, parseEnv, runMain } from '@cm/platform';
import { AppModule } from './app.module';
import { configSchema } from './config';

export function main(): void {
  runMain('inventory', async () => {
    const config = parseEnv(configSchema);
    await bootstrapService({ service: 'inventory', module: AppModule.forRoot(config), config });
  });
}
