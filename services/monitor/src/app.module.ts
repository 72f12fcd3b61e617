import { PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { type Config } from './config';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [PlatformModule.forService({ service: 'monitor', config })],
    };
  }
}
