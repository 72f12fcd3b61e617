import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { OpenIdClient } from './openid-client';
import { SingleSignOnMessageController } from './single-sign-on.message.controller';
import { SingleSignOnService } from './single-sign-on.service';

/** OpenID Connect sign-in: the relying party, and the external users it signs in. */
@Module({
  imports: [UsersModule],
  controllers: [SingleSignOnMessageController],
  providers: [OpenIdClient, SingleSignOnService],
})
export class SingleSignOnModule {}
