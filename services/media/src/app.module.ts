import { DatabaseModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { type Config } from './config';
import { migrations } from './migrations';
import { StorageModule } from './storage/storage.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'media', config }),
        DatabaseModule.forService({ service: 'media', entities: [], migrations }),
        StorageModule,
      ],
    };
  }
}
