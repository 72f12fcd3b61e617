import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { TokensModule } from '../tokens/tokens.module';
import { AccountSessions } from './account-sessions.service';
import { SignOutTokens } from './sign-out-token';

/** What ends or lists a person's sessions (and their tokens, on a password change). */
@Module({
  imports: [IdentityModule, TokensModule],
  providers: [AccountSessions, SignOutTokens],
  exports: [AccountSessions, SignOutTokens],
})
export class SessionModule {}
