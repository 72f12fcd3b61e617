import {
  authMessages,
  ErrorCode,
  type LoginMessage,
  type SessionUser,
  type User,
  type UserCreateMessage,
  type UserDeleteMessage,
  type UserUpdateMessage,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { assertAllowedPassword } from '../passwords/password-policy';
import { PasswordHasher } from './password-hasher';
import { type UserEntity } from './user.entity';
import { type AdminLockedStore, type UserFields, UserRepository } from './user.repository';

const notFound = () => new AppError(ErrorCode.USER_NOT_FOUND, authMessages.userNotFound);

/**
 * The identity provider keeps an external user's password, and decides their role at each
 * sign-in (OIDC_ADMIN_GROUPS): a change here would not last, so it is refused, not ignored.
 */
function refuseExternalChanges(user: UserEntity, fields: UserFields): void {
  if (fields.passwordHash !== undefined)
    throw new AppError(ErrorCode.EXTERNAL_ACCOUNT, authMessages.externalPassword, [
      { path: 'password', message: authMessages.externalPassword },
    ]);
  if (fields.role !== undefined && fields.role !== user.role)
    throw new AppError(ErrorCode.EXTERNAL_ACCOUNT, authMessages.externalRole, [
      { path: 'role', message: authMessages.externalRole },
    ]);
}

/** A user as every call returns it: never the password hash. */
export function toUser(entity: UserEntity): User {
  return {
    id: entity.id,
    username: entity.username,
    email: entity.email,
    firstName: entity.firstName,
    lastName: entity.lastName,
    role: entity.role,
    isActive: entity.isActive,
    totpEnabled: Boolean(entity.totpSecret),
    external: entity.externalSubject !== null,
    createdAt: entity.createdAt.toISOString(),
    updatedAt: entity.updatedAt.toISOString(),
  };
}

/** A user with the version their sessions must carry: for the gateway only. */
export function toSessionUser(entity: UserEntity): SessionUser {
  return { user: toUser(entity), sessionVersion: entity.sessionVersion };
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * One answer and about one argon2 verification of time for an unknown user, a wrong password and
   * a deactivated account: a different answer for the last would tell a guesser the password is right.
   */
  async login({ username, password, knownDevice }: LoginMessage): Promise<SessionUser> {
    const user = await this.users.findByUsername(username);
    // An external user has no password here: they are answered as a username nobody has.
    const valid = user?.passwordHash
      ? await this.hasher.verify(user.passwordHash, password, knownDevice)
      : await this.hasher.verifyNobody(password);
    if (!user || !valid || user.isActive !== 1)
      throw new AppError(ErrorCode.INVALID_CREDENTIALS, authMessages.invalidCredentials);
    return toSessionUser(user);
  }

  async get(id: string): Promise<User> {
    return (await this.getWithSessionVersion(id)).user;
  }

  async getWithSessionVersion(id: string): Promise<SessionUser> {
    const user = await this.users.findById(id);
    if (!user) throw notFound();
    return toSessionUser(user);
  }

  async list(): Promise<User[]> {
    return (await this.users.list()).map(toUser);
  }

  async create({ user }: UserCreateMessage): Promise<User> {
    const { password, ...fields } = user;
    assertAllowedPassword(password);
    return toUser(await this.users.create({ ...fields, passwordHash: await this.hasher.hash(password) }));
  }

  async update({ actorId, id, changes }: UserUpdateMessage): Promise<SessionUser> {
    const { password, ...rest } = changes;
    if (password) assertAllowedPassword(password);
    // Hashed before the lock is taken: argon2 takes tens of milliseconds.
    const fields: UserFields = password ? { ...rest, passwordHash: await this.hasher.hash(password) } : rest;
    return this.users.changeUnderAdminLock(id, async (user, store) => {
      if (!user) throw notFound();
      if (user.externalSubject !== null) refuseExternalChanges(user, fields);
      if (id === actorId && fields.isActive === 0)
        throw new AppError(ErrorCode.SELF_CHANGE, authMessages.selfDeactivate);
      const staysActiveAdmin =
        (fields.role ?? user.role) === 'admin' && (fields.isActive ?? user.isActive) === 1;
      if (!staysActiveAdmin) await this.keepAnAdmin(user, store);
      // Under the row lock, so that concurrent changes each raise it. Reactivating leaves it
      // raised: the sessions a deactivation ended stay ended.
      const endsSessions =
        fields.passwordHash !== undefined || (fields.isActive === 0 && user.isActive === 1);
      const sessionVersion = endsSessions ? user.sessionVersion + 1 : user.sessionVersion;
      return toSessionUser(await store.update(user, { ...fields, sessionVersion }));
    });
  }

  async delete({ actorId, id }: UserDeleteMessage): Promise<void> {
    if (id === actorId) throw new AppError(ErrorCode.SELF_CHANGE, authMessages.selfDelete);
    await this.users.changeUnderAdminLock(id, async (user, store) => {
      if (!user) throw notFound();
      await this.keepAnAdmin(user, store);
      await store.delete(id);
    });
  }

  /** Refuses to remove the last active administrator (by deletion, demotion or deactivation). */
  private async keepAnAdmin(user: UserEntity, store: AdminLockedStore): Promise<void> {
    if (user.role !== 'admin' || user.isActive !== 1) return;
    if ((await store.otherActiveAdmins(user.id)) === 0)
      throw new AppError(ErrorCode.LAST_ADMIN, authMessages.lastAdmin);
  }
}
