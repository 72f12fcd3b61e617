import {
  deleted,
  type LoginMessage,
  messages,
  type TotpCodeMessage,
  type TotpProofMessage,
  type UserCreateMessage,
  type UserDeleteMessage,
  type UserIdMessage,
  type UserUpdateMessage,
} from '@cm/contracts';
import { HandleMessage } from '@cm/platform';
import { Controller } from '@nestjs/common';
import { TotpService } from './totp.service';
import { UserChanges } from './user-changes';
import { UsersService } from './users.service';

@Controller()
export class UsersMessageController {
  constructor(
    private readonly users: UsersService,
    private readonly changes: UserChanges,
    private readonly totp: TotpService,
  ) {}

  @HandleMessage(messages.auth.login)
  login(dto: LoginMessage) {
    return this.users.login(dto);
  }

  @HandleMessage(messages.auth.getUser)
  get(dto: UserIdMessage) {
    return this.users.get(dto.id);
  }

  @HandleMessage(messages.auth.getSessionUser)
  getSessionUser(dto: UserIdMessage) {
    return this.users.getWithSessionVersion(dto.id);
  }

  @HandleMessage(messages.auth.listUsers)
  list() {
    return this.users.list();
  }

  @HandleMessage(messages.auth.createUser)
  create(dto: UserCreateMessage) {
    return this.users.create(dto);
  }

  @HandleMessage(messages.auth.updateUser)
  async update(dto: UserUpdateMessage) {
    const changed = await this.users.update(dto);
    await this.changes.announce(dto.id);
    return changed;
  }

  @HandleMessage(messages.auth.deleteUser)
  async delete(dto: UserDeleteMessage) {
    await this.users.delete(dto);
    await this.changes.announce(dto.id);
    return deleted;
  }

  @HandleMessage(messages.auth.totpStatus)
  totpStatus(dto: { userId: string }) {
    return this.totp.status(dto.userId);
  }

  @HandleMessage(messages.auth.totpSetup)
  totpSetup(dto: { userId: string }) {
    return this.totp.setup(dto.userId);
  }

  @HandleMessage(messages.auth.totpEnable)
  totpEnable(dto: TotpCodeMessage) {
    return this.totp.enable(dto);
  }

  @HandleMessage(messages.auth.totpVerify)
  totpVerify(dto: TotpCodeMessage) {
    return this.totp.verify(dto);
  }

  @HandleMessage(messages.auth.totpDisable)
  totpDisable(dto: TotpProofMessage) {
    return this.totp.disable(dto);
  }

  @HandleMessage(messages.auth.totpRecoveryCodes)
  totpRecoveryCodes(dto: TotpProofMessage) {
    return this.totp.regenerateRecoveryCodes(dto);
  }

  @HandleMessage(messages.auth.totpReset)
  totpReset(dto: { userId: string }) {
    return this.totp.reset(dto.userId);
  }
}
