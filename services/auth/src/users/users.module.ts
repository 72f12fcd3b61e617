import { Module } from '@nestjs/common';
import { AccountEvents } from './account-events';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { PasswordHasher } from './password-hasher';
import { TotpService } from './totp.service';
import { UserChanges } from './user-changes';
import { UserRepository } from './user.repository';
import { UsersMessageController } from './users.message.controller';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersMessageController],
  providers: [
    UserRepository,
    PasswordHasher,
    UsersService,
    UserChanges,
    AccountEvents,
    TotpService,
    AdminBootstrapService,
  ],
  exports: [UserRepository, PasswordHasher, UserChanges, AccountEvents],
})
export class UsersModule {}
