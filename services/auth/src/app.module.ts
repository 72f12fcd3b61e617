import { DatabaseModule, JetStreamModule, PlatformModule } from '@cm/platform';
import { type DynamicModule, Module } from '@nestjs/common';
import { type Config } from './config';
import { migrations } from './migrations';
import { UserEntity } from './users/user.entity';
import { SingleSignOnModule } from './single-sign-on/single-sign-on.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AppModule {
  static forRoot(config: Config): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forService({ service: 'auth', config }),
        DatabaseModule.forService({ service: 'auth', entities: [UserEntity], migrations }),
        JetStreamModule.forService('auth'),
        UsersModule,
        SingleSignOnModule,
      ],
    };
  }
}
