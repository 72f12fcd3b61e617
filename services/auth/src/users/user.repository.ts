import { type AccountAccess, ErrorCode } from '@cm/contracts';
import { AppError, execute, schemaNameOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, QueryFailedError, type Repository } from 'typeorm';
import { accessOf } from './account-events';
import { UserEntity } from './user.entity';

export type UserFields = Partial<
  Pick<
    UserEntity,
    'username' | 'passwordHash' | 'email' | 'firstName' | 'lastName' | 'role' | 'isActive' | 'sessionVersion'
  >
>;

export type TotpFields = Partial<
  Pick<UserEntity, 'totpSecret' | 'totpPendingSecret' | 'totpLastStep' | 'totpRecoveryCodes'>
>;

/** The unique indexes of the users migration, and the field a person has to change. */
const uniqueFields: Record<string, { code: ErrorCode; field: 'username' | 'email'; label: string }> = {
  users_username_key: { code: ErrorCode.USERNAME_TAKEN, field: 'username', label: 'Username' },
  users_email_key: { code: ErrorCode.EMAIL_TAKEN, field: 'email', label: 'Email' },
};

/** A unique violation (23505) as a 409 naming the field; anything else unchanged. */
function conflictOf(error: unknown, fields: UserFields): unknown {
  const driver =
    error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : null;
  const unique = driver?.code === '23505' ? uniqueFields[driver.constraint ?? ''] : undefined;
  if (!unique) return error;
  const message = `${unique.label} "${fields[unique.field] ?? ''}" is already in use. Choose another.`;
  return new AppError(unique.code, message, [{ path: unique.field, message }]);
}

@Injectable()
export class UserRepository {
  private readonly users: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  /**
   * Creates the first administrator only while the table is empty. The transaction-scoped
   * advisory lock keeps replicas that start together from creating two. `beforeCommit` runs once
   * the row is in, under the lock; if it throws, no administrator is created.
   */
  async createFirstAdmin(
    username: string,
    passwordHash: string,
    beforeCommit: () => Promise<void> = async () => undefined,
  ): Promise<UserEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await execute(manager, "SELECT pg_advisory_xact_lock(hashtext('auth.first-admin'))");
      if ((await manager.count(UserEntity)) > 0) return null;
      const created = await manager.save(
        manager.create(UserEntity, { username, passwordHash, role: 'admin', isActive: 1 }),
      );
      await beforeCommit();
      return created;
    });
  }

  count(): Promise<number> {
    return this.users.count();
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** Usernames are unique regardless of case, so sign-in ignores case too. */
  findByUsername(username: string): Promise<UserEntity | null> {
    return this.users
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username)', { username })
      .getOne();
  }

  /**
   * The external user the provider names by `subject`, created or brought up to date in one
   * transaction. Two sign-ins of one person at once are serialised by the advisory lock, so the
   * second finds the row the first created.
   */
  async signInExternal(
    identity: { issuer: string; subject: string },
    change: (user: UserEntity | null, others: OtherUsers) => Promise<UserFields>,
    beforeCommit: (before: AccountAccess | null, after: UserEntity) => Promise<void> = async () => undefined,
  ): Promise<UserEntity> {
    return this.dataSource.transaction(async (manager) => {
      await execute(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [
        `${this.schema}.external:${identity.issuer}:${identity.subject}`,
      ]);
      const user = await manager.findOne(UserEntity, {
        where: { externalIssuer: identity.issuer, externalSubject: identity.subject },
      });
      const fields = await change(user, new OtherUsers(manager, user?.id ?? null));
      const before = user ? accessOf(user) : null;
      let saved: UserEntity;
      try {
        saved = user
          ? await manager.save(Object.assign(user, fields))
          : await manager.save(
              manager.create(UserEntity, {
                ...fields,
                externalIssuer: identity.issuer,
                externalSubject: identity.subject,
              }),
            );
      } catch (error) {
        throw conflictOf(error, fields);
      }
      await beforeCommit(before, saved);
      return saved;
    });
  }

  list(): Promise<UserEntity[]> {
    return this.users.createQueryBuilder('u').orderBy('lower(u.username)').addOrderBy('u.id').getMany();
  }

  /** `beforeCommit` runs in the insert's transaction: throwing undoes the insert. */
  async create(
    fields: UserFields,
    beforeCommit: (user: UserEntity) => Promise<void> = async () => undefined,
  ): Promise<UserEntity> {
    return this.dataSource.transaction(async (manager) => {
      let user: UserEntity;
      try {
        user = await manager.save(manager.create(UserEntity, fields));
      } catch (error) {
        throw conflictOf(error, fields);
      }
      await beforeCommit(user);
      return user;
    });
  }

  /**
   * Runs `change` in a transaction that holds the administrators lock, with the target row
   * locked: two concurrent demotions (or deletions) of the last two administrators are
   * serialised, so the second one sees that only one is left.
   */
  async changeUnderAdminLock<T>(
    id: string,
    change: (user: UserEntity | null, store: AdminLockedStore) => Promise<T>,
  ): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await execute(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.schema}.admins`]);
      const user = await manager.findOne(UserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      return change(user, new AdminLockedStore(manager));
    });
  }

  /**
   * A user's own new password, only while the hash is still the one the current password was
   * checked against: of two changes at once, the second finds it gone. Their sessions' version
   * goes up in the same statement. Null when the hash was replaced meanwhile.
   */
  async replacePassword(id: string, checkedHash: string, newHash: string): Promise<UserEntity | null> {
    const { affected } = await this.users
      .createQueryBuilder()
      .update()
      .set({ passwordHash: newHash, sessionVersion: () => 'session_version + 1' })
      .where('id = :id AND password_hash = :checkedHash', { id, checkedHash })
      .execute();
    return affected ? this.findById(id) : null;
  }

  /** Two-factor fields only (never a change an administrator makes): no lock needed. */
  async setTotp(
    id: string,
    fields: TotpFields,
    where: { totpPendingSecret?: string } = {},
  ): Promise<boolean> {
    const { affected } = await this.users.update({ id, ...where }, fields);
    return Boolean(affected);
  }

  /** Records the time step of an accepted code, only when later than the last: one of two alike wins. */
  async useTotpStep(id: string, step: number): Promise<boolean> {
    const { affected } = await this.users
      .createQueryBuilder()
      .update()
      .set({ totpLastStep: String(step) })
      .where('id = :id AND (totp_last_step IS NULL OR totp_last_step < :step)', { id, step })
      .execute();
    return Boolean(affected);
  }

  /** Removes a recovery code's hash, when the user still has it. */
  async useRecoveryCode(id: string, hash: string): Promise<boolean> {
    const { affected } = await this.users
      .createQueryBuilder()
      .update()
      .set({ totpRecoveryCodes: () => 'array_remove(totp_recovery_codes, :hash)' })
      .where('id = :id AND :hash = ANY(totp_recovery_codes)', { id, hash })
      .execute();
    return Boolean(affected);
  }

  private get schema(): string {
    return schemaNameOf(this.dataSource);
  }
}

/** Whether a username or an email is another user's than the one being signed in. */
export class OtherUsers {
  constructor(
    private readonly manager: EntityManager,
    private readonly self: string | null,
  ) {}

  async haveUsername(username: string): Promise<boolean> {
    return this.have('lower(u.username) = lower(:value)', username);
  }

  async haveEmail(email: string): Promise<boolean> {
    return this.have('u.email = :value', email);
  }

  private async have(condition: string, value: string): Promise<boolean> {
    const query = this.manager.createQueryBuilder(UserEntity, 'u').where(condition, { value });
    if (this.self) query.andWhere('u.id <> :self', { self: this.self });
    return (await query.getCount()) > 0;
  }
}

/** What may be done while the administrators lock is held (inside its transaction). */
export class AdminLockedStore {
  constructor(private readonly manager: EntityManager) {}

  otherActiveAdmins(id: string): Promise<number> {
    return this.manager
      .createQueryBuilder(UserEntity, 'u')
      .where('u.role = :role AND u.is_active = 1 AND u.id <> :id', { role: 'admin', id })
      .getCount();
  }

  async update(user: UserEntity, fields: UserFields): Promise<UserEntity> {
    try {
      return await this.manager.save(Object.assign(user, fields));
    } catch (error) {
      throw conflictOf(error, fields);
    }
  }

  async delete(id: string): Promise<void> {
    await this.manager.delete(UserEntity, { id });
  }
}
