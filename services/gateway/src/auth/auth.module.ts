import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountSessions } from '../session/account-sessions.service';
import { AccessGuard } from './access.guard';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { DeviceCookies } from './device-cookie';
import { LoginAttemptRepository } from './login-attempt.repository';
import { loginClockProvider, LoginThrottle } from './login-throttle.service';
import { SignOutTokens } from '../session/sign-out-token';
import { ApiTokenRepository } from '../tokens/api-token.repository';
import { ApiTokensController } from '../tokens/api-tokens.controller';
import { ApiTokens } from '../tokens/api-tokens.service';
import { OidcTransactions } from './oidc-transactions';
import { SessionUsers } from './session-users';
import { SingleSignOnController } from './single-sign-on.controller';
import { SpentChallengeRepository } from './spent-challenge.repository';
import { ThrottledAttempts } from './throttled-attempts';
import { TotpChallenges } from './totp-challenge';
import { TotpEnrolmentGuard } from './totp-enrolment.guard';
import { UsersController } from './users.controller';

/**
 * Sign-in, the session routes, the Account screen's, User Management, API tokens, and the guards
 * every route passes.
 */
@Module({
  controllers: [
    AuthController,
    SingleSignOnController,
    AccountController,
    UsersController,
    ApiTokensController,
  ],
  providers: [
    AccountSessions,
    LoginAttemptRepository,
    DeviceCookies,
    LoginThrottle,
    loginClockProvider,
    SignOutTokens,
    SessionUsers,
    ApiTokenRepository,
    ApiTokens,
    ThrottledAttempts,
    TotpChallenges,
    SpentChallengeRepository,
    OidcTransactions,
    { provide: APP_GUARD, useClass: AccessGuard },
    // After the access guard, which reads the user it checks.
    { provide: APP_GUARD, useClass: TotpEnrolmentGuard },
  ],
  exports: [SessionUsers, ApiTokenRepository, ApiTokens],
})
export class AuthModule {}
