import { Module } from '@nestjs/common';
import { AdminBootstrapService } from './admin-bootstrap.service';
import { PasswordHasher } from './password-hasher';
import { UserRepository } from './user.repository';

@Module({
  providers: [UserRepository, PasswordHasher, AdminBootstrapService],
  exports: [UserRepository, PasswordHasher],
})
export class UsersModule {}
