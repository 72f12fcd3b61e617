import { DatabaseModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { type Config } from './config';
import { migrations } from './migrations';
import { MediaObjectEntity } from './objects/media-object.entity';
import { ObjectsModule } from './objects/objects.module';
import { StorageModule } from './storage/storage.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'media', config }),
        DatabaseModule.forService({ service: 'media', entities: [MediaObjectEntity], migrations }),
        ScheduleModule.forRoot(),
        StorageModule,
        ObjectsModule,
      ],
    };
  }
}
