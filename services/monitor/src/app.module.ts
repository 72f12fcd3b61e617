import { JetStreamModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { type Config } from './config';
import { MonitoringModule } from './monitoring/monitoring.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'monitor', config }),
        JetStreamModule.forService('monitor'),
        MonitoringModule,
      ],
    };
  }
}
