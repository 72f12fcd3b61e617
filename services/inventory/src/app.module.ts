import { DatabaseModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { type Config } from './config';
import { migrations } from './migrations';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'inventory', config }),
        DatabaseModule.forService({ service: 'inventory', entities: [], migrations }),
      ],
    };
  }
}
