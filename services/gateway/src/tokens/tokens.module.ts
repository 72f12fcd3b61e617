import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { ThrottleModule } from '../throttle/throttle.module';
import { ApiTokenRepository } from './api-token.repository';
import { ApiTokensController } from './api-tokens.controller';
import { ApiTokens } from './api-tokens.service';

/** API tokens: the Account screen's list, and the bearer check the access guard asks. */
@Module({
  imports: [IdentityModule, ThrottleModule],
  controllers: [ApiTokensController],
  providers: [ApiTokenRepository, ApiTokens],
  exports: [ApiTokenRepository, ApiTokens],
})
export class TokensModule {}
