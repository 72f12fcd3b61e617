import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdentityModule } from '../identity/identity.module';
import { SessionModule } from '../session/session.module';
import { ThrottleModule } from '../throttle/throttle.module';
import { TokensModule } from '../tokens/tokens.module';
import { AccessGuard } from './access.guard';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { OidcTransactions } from './oidc-transactions';
import { SingleSignOnController } from './single-sign-on.controller';
import { SpentChallengeRepository } from './spent-challenge.repository';
import { TotpChallenges } from './totp-challenge';
import { TotpEnrolmentGuard } from './totp-enrolment.guard';
import { UsersController } from './users.controller';

/**
 * Sign-in, the session routes, the Account screen's, User Management, and the guards every route
 * passes. It sits on top: identity, the throttle, tokens and sessions know nothing of it.
 */
@Module({
  imports: [IdentityModule, ThrottleModule, TokensModule, SessionModule],
  controllers: [AuthController, SingleSignOnController, AccountController, UsersController],
  providers: [
    TotpChallenges,
    SpentChallengeRepository,
    OidcTransactions,
    { provide: APP_GUARD, useClass: AccessGuard },
    // After the access guard, which reads the user it checks.
    { provide: APP_GUARD, useClass: TotpEnrolmentGuard },
  ],
})
export class AuthModule {}
