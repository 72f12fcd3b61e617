import { authMessages, ErrorCode, type UserUpdateMessage } from '@cm/contracts';
import { type AppError } from '@cm/platform';
import { type AccountEvents } from './account-events';
import { type PasswordHasher } from './password-hasher';
import { type UserEntity } from './user.entity';
import { type AdminLockedStore, type UserFields, type UserRepository } from './user.repository';
import { UsersService } from './users.service';

/** The users table as the administrators lock sees it: the store counts and changes these rows. */
function usersTable(rows: UserEntity[]) {
  const store: jest.Mocked<Pick<AdminLockedStore, 'otherActiveAdmins' | 'update' | 'delete'>> = {
    otherActiveAdmins: jest.fn(
      async (id: string) => rows.filter((u) => u.id !== id && u.role === 'admin' && u.isActive === 1).length,
    ),
    update: jest.fn(async (user: UserEntity, fields: UserFields) => Object.assign(user, fields)),
    delete: jest.fn(async (id: string) => {
      rows.splice(
        rows.findIndex((u) => u.id === id),
        1,
      );
    }),
  };
  const repository: Pick<UserRepository, 'changeUnderAdminLock'> = {
    changeUnderAdminLock: <T>(
      id: string,
      change: (user: UserEntity | null, store: AdminLockedStore) => Promise<T>,
    ): Promise<T> => change(rows.find((u) => u.id === id) ?? null, store as unknown as AdminLockedStore),
  };
  return { store, repository: repository as unknown as UserRepository };
}

const user = (id: string, role: 'admin' | 'user', isActive: 0 | 1 = 1): UserEntity => ({
  id,
  username: id,
  passwordHash: 'hash',
  email: null,
  firstName: null,
  lastName: null,
  role,
  isActive,
  sessionVersion: 0,
  totpSecret: null,
  totpPendingSecret: null,
  totpLastStep: null,
  totpRecoveryCodes: [],
  externalIssuer: null,
  externalSubject: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

/** An edit as the user form sends it: every field, the password only when one was typed. */
const form = (username: string) => ({ username, password: undefined });

const hasher = { hash: jest.fn(async () => 'new hash') } as unknown as PasswordHasher;
const accounts: jest.Mocked<Pick<AccountEvents, 'changed'>> = {
  changed: jest.fn<Promise<void>, Parameters<AccountEvents['changed']>>(),
};

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: AppError) => ({ code: error.code, message: error.message }),
  );
const lastAdmin = { code: ErrorCode.LAST_ADMIN, message: authMessages.lastAdmin };

describe(`${UsersService.name}: the last active administrator stays`, () => {
  // `actor` is an administrator whose own row is not in the table: the rule counts rows, not callers.
  const actorId = 'actor';

  it('refuses to delete, demote or deactivate the only active administrator', async () => {
    const rows = [user('chief', 'admin'), user('teacher', 'user'), user('retired', 'admin', 0)];
    const { store, repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(await refusal(sut.delete({ actorId, id: 'chief' }))).toEqual(lastAdmin);
    expect(
      await refusal(sut.update({ actorId, id: 'chief', changes: { ...form('chief'), role: 'user' } })),
    ).toEqual(lastAdmin);
    expect(
      await refusal(sut.update({ actorId, id: 'chief', changes: { ...form('chief'), isActive: 0 } })),
    ).toEqual(lastAdmin);
    expect(store.delete).not.toHaveBeenCalled();
    expect(store.update).not.toHaveBeenCalled();
    expect(rows.find((u) => u.id === 'chief')).toMatchObject({ role: 'admin', isActive: 1 });
  });

  it('lets one of two active administrators go, then keeps the other', async () => {
    const rows = [user('chief', 'admin'), user('deputy', 'admin'), user('retired', 'admin', 0)];
    const { repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(
      (await sut.update({ actorId, id: 'deputy', changes: { ...form('deputy'), role: 'user' } })).user,
    ).toMatchObject({
      id: 'deputy',
      role: 'user',
    });
    expect(await refusal(sut.delete({ actorId, id: 'chief' }))).toEqual(lastAdmin);
    await sut.delete({ actorId, id: 'deputy' });
    expect(rows.map((u) => u.id)).toEqual(['chief', 'retired']);
  });

  it('does not count an inactive administrator as the one that stays', async () => {
    const rows = [user('chief', 'admin'), user('retired', 'admin', 0)];
    const { repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(
      await refusal(sut.update({ actorId, id: 'chief', changes: { ...form('chief'), isActive: 0 } })),
    ).toEqual(lastAdmin);
  });

  it('lets the last administrator be edited in every other way', async () => {
    const rows = [user('chief', 'admin')];
    const { repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(
      await sut.update({
        actorId,
        id: 'chief',
        changes: { ...form('chief'), lastName: 'Hopper', password: 'a new password' },
      }),
    ).toMatchObject({ user: { id: 'chief', role: 'admin', isActive: 1, lastName: 'Hopper' } });
    expect(rows[0].passwordHash).toBe('new hash');
    // Saying again what it already is changes nothing the rule guards.
    expect(
      await sut.update({ actorId, id: 'chief', changes: { ...form('chief'), role: 'admin', isActive: 1 } }),
    ).toMatchObject({ user: { role: 'admin', isActive: 1 } });
  });

  it('lets users and inactive administrators go while one administrator is left', async () => {
    const rows = [user('chief', 'admin'), user('teacher', 'user'), user('retired', 'admin', 0)];
    const { repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    await sut.delete({ actorId, id: 'teacher' });
    await sut.delete({ actorId, id: 'retired' });
    expect(rows.map((u) => u.id)).toEqual(['chief']);
  });

  it('refuses an administrator deleting or deactivating themselves before counting anyone', async () => {
    const rows = [user('chief', 'admin'), user('deputy', 'admin')];
    const { store, repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(await refusal(sut.delete({ actorId: 'chief', id: 'chief' }))).toEqual({
      code: ErrorCode.SELF_CHANGE,
      message: authMessages.selfDelete,
    });
    expect(
      await refusal(
        sut.update({ actorId: 'chief', id: 'chief', changes: { ...form('chief'), isActive: 0 } }),
      ),
    ).toEqual({
      code: ErrorCode.SELF_CHANGE,
      message: authMessages.selfDeactivate,
    });
    expect(store.otherActiveAdmins).not.toHaveBeenCalled();
    expect(rows).toHaveLength(2);
  });

  it('answers USER_NOT_FOUND for an id that is not there', async () => {
    const { repository } = usersTable([user('chief', 'admin')]);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);

    expect(await refusal(sut.delete({ actorId, id: 'nobody' }))).toMatchObject({
      code: ErrorCode.USER_NOT_FOUND,
    });
  });
});

describe(`${UsersService.name}: the session version`, () => {
  it('goes up with a new password or a deactivation, and with nothing else', async () => {
    const rows = [user('chief', 'admin'), user('teacher', 'user')];
    const { repository } = usersTable(rows);
    const sut = new UsersService(repository, hasher, accounts as unknown as AccountEvents);
    const edit = async (changes: Partial<UserUpdateMessage['changes']>) =>
      (await sut.update({ actorId: 'chief', id: 'teacher', changes: { ...form('teacher'), ...changes } }))
        .sessionVersion;

    expect(await edit({ lastName: 'Lovelace' })).toBe(0);
    expect(await edit({ password: 'a new password' })).toBe(1);
    expect(await edit({ isActive: 0 })).toBe(2);
    expect(await edit({ isActive: 0, lastName: 'still inactive' })).toBe(2);
    expect(await edit({ isActive: 1 })).toBe(2);
    expect(rows[1].sessionVersion).toBe(2);
  });
});
