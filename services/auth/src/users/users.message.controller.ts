import {
  loginSchema,
  patterns,
  userCreateMessageSchema,
  userDeleteMessageSchema,
  userIdMessageSchema,
  userUpdateMessageSchema,
  type Login,
  type UserCreateMessage,
  type UserDeleteMessage,
  type UserIdMessage,
  type UserUpdateMessage,
} from '@cm/contracts';
import { ZodPipe } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { UsersService } from './users.service';

@Controller()
export class UsersMessageController {
  constructor(private readonly users: UsersService) {}

  @MessagePattern(patterns.auth.login)
  login(@Payload(new ZodPipe(loginSchema)) dto: Login) {
    return this.users.login(dto);
  }

  @MessagePattern(patterns.auth.getUser)
  get(@Payload(new ZodPipe(userIdMessageSchema)) dto: UserIdMessage) {
    return this.users.get(dto.id);
  }

  @MessagePattern(patterns.auth.listUsers)
  list() {
    return this.users.list();
  }

  @MessagePattern(patterns.auth.createUser)
  create(@Payload(new ZodPipe(userCreateMessageSchema)) dto: UserCreateMessage) {
    return this.users.create(dto);
  }

  @MessagePattern(patterns.auth.updateUser)
  update(@Payload(new ZodPipe(userUpdateMessageSchema)) dto: UserUpdateMessage) {
    return this.users.update(dto);
  }

  @MessagePattern(patterns.auth.deleteUser)
  async delete(@Payload(new ZodPipe(userDeleteMessageSchema)) dto: UserDeleteMessage) {
    await this.users.delete(dto);
    return { deleted: true };
  }
}
