import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountSessions } from '../session/account-sessions.service';
import { AccessGuard } from './access.guard';
import { AuthController } from './auth.controller';
import { DeviceCookies } from './device-cookie';
import { LoginAttemptRepository } from './login-attempt.repository';
import { loginClockProvider, LoginThrottle } from './login-throttle.service';
import { SignOutTokens } from '../session/sign-out-token';
import { ApiTokenRepository } from '../tokens/api-token.repository';
import { ApiTokensController } from '../tokens/api-tokens.controller';
import { ApiTokens } from '../tokens/api-tokens.service';
import { SessionUsers } from './session-users';
import { UsersController } from './users.controller';

/** Sign-in, the session routes, User Management, API tokens, and the access guard every route passes. */
@Module({
  controllers: [AuthController, UsersController, ApiTokensController],
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
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [SessionUsers, ApiTokenRepository],
})
export class AuthModule {}
