import {
  authMessages,
  ErrorCode,
  type MessageRequest,
  messages,
  type User,
  totpMessages,
  type UserCreate,
} from '@cm/contracts';
import { type AppError, type RpcClient } from '@cm/platform';
import { startTestService, type TestService } from '@cm/platform/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { PasswordHasher } from '../src/users/password-hasher';
import { type Config, configSchema } from '../src/config';

describe('auth users', () => {
  let sut: TestService<Config>;
  let admin: User;

  const send: RpcClient['send'] = (message, ...args) => sut.rpc.send(message, ...args);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: AppError) => ({ code: error.code, message: error.message, errors: error.errors }),
    );
  const login = async (username: string, password: string) =>
    (await send(messages.auth.login, { username, password })).user;
  const create = (user: Partial<UserCreate> & { username: string; password: string }, actorId = admin.id) =>
    send(messages.auth.createUser, { actorId, user });
  const update = (
    id: string,
    changes: MessageRequest<typeof messages.auth.updateUser>['changes'],
    actorId = admin.id,
  ) => send(messages.auth.updateUser, { actorId, id, changes }).then((reply) => reply.user);
  const remove = (id: string, actorId = admin.id) => send(messages.auth.deleteUser, { actorId, id });
  const hashOf = async (id: string) =>
    (
      (await sut.app
        .get(DataSource)
        .query(`SELECT password_hash FROM "${sut.namespace}_auth".users WHERE id = $1`, [id])) as {
        password_hash: string;
      }[]
    )[0].password_hash;

  beforeAll(async () => {
    sut = await startTestService({
      service: 'auth',
      schema: configSchema,
      module: AppModule.forRoot,
      env: {
        ADMIN_USERNAME: 'chief',
        ADMIN_PASSWORD: 'chief password',
        // OWASP's least argon2id cost rather than the tests' cheapest, so that a verification
        // takes long enough for the sign-in timing test to tell one from none through the noise.
        PASSWORD_HASH_MEMORY_KIB: '19456',
        PASSWORD_HASH_PASSES: '2',
      },
    });
    admin = await login('chief', 'chief password');
  });
  afterAll(() => sut?.close());

  describe('sign-in', () => {
    it('answers the user, without any password, ignoring the case of the username', async () => {
      const user = await login('CHIEF', 'chief password');
      expect(user).toEqual({
        id: admin.id,
        username: 'chief',
        email: null,
        firstName: null,
        lastName: null,
        role: 'admin',
        isActive: 1,
        totpEnabled: false,
        external: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(JSON.stringify(user)).not.toMatch(/password|argon2|totpSecret|recovery/i);
    });

    it('gives the same answer, after the same work, for a wrong password and an unknown user', async () => {
      // The same work rather than a stopwatch, which a loaded machine makes say anything: one
      // argon2 verification each, against a hash of the same algorithm and cost.
      const verify = jest.spyOn(sut.app.get(PasswordHasher), 'verify');
      const workOf = async (username: string) => {
        verify.mockClear();
        const refusal = await failure(login(username, 'not it at all'));
        return { refusal, verifications: verify.mock.calls.map(([hash]) => hash.split('$').slice(1, 4)) };
      };
      try {
        const wrong = await workOf('chief');
        const unknown = await workOf('nobody-here');
        const expected = { code: ErrorCode.INVALID_CREDENTIALS, message: 'Invalid username or password' };
        expect(wrong.refusal).toMatchObject(expected);
        expect(unknown.refusal).toMatchObject(expected);
        expect(wrong.verifications).toEqual([['argon2id', expect.any(String), expect.any(String)]]);
        expect(unknown.verifications).toEqual(wrong.verifications);
      } finally {
        verify.mockRestore();
      }
    });

    it('refuses a deactivated user with the right password in the words of a wrong one', async () => {
      const user = await create({ username: 'gone-home', password: 'resting by the lake', isActive: 0 });
      const wrong = await failure(login('gone-home', 'not the password'));
      expect(await failure(login('gone-home', 'resting by the lake'))).toEqual(wrong);
      expect(wrong).toMatchObject({
        code: ErrorCode.INVALID_CREDENTIALS,
        message: authMessages.invalidCredentials,
      });
      await update(user.id, { username: 'gone-home', isActive: 1 });
      await expect(login('gone-home', 'resting by the lake')).resolves.toMatchObject({ id: user.id });
    });

    it('answers a missing field with the schema messages', async () => {
      expect(await failure(send(messages.auth.login, {} as never))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message: 'Username is required. Password is required',
      });
    });
  });

  describe('management', () => {
    it('creates a user with the defaults, stores only an argon2id hash, and lists it', async () => {
      const user = await create({ username: 'ana', password: 'ana secret phrase', email: 'Ana@Campus.edu' });
      expect(user).toMatchObject({ username: 'ana', email: 'ana@campus.edu', role: 'user', isActive: 1 });
      expect(await hashOf(user.id)).toMatch(/^\$argon2id\$/);
      await expect(login('ana', 'ana secret phrase')).resolves.toMatchObject({ id: user.id });
      const list = await send(messages.auth.listUsers, {});
      expect(list.map((u) => u.username)).toEqual(expect.arrayContaining(['ana', 'chief']));
      expect(JSON.stringify(list)).not.toMatch(/password|argon2/i);
    });

    it('answers 409 naming the field for a taken username or email, whatever the case', async () => {
      await create({ username: 'ben', password: 'ben secret phrase', email: 'ben@campus.edu' });
      expect(await failure(create({ username: 'BEN', password: 'x secret phrase' }))).toEqual({
        code: ErrorCode.USERNAME_TAKEN,
        message: 'Username "BEN" is already in use. Choose another.',
        errors: [{ path: 'username', message: 'Username "BEN" is already in use. Choose another.' }],
      });
      expect(
        await failure(create({ username: 'benji', password: 'x secret phrase', email: 'BEN@campus.edu' })),
      ).toMatchObject({
        code: ErrorCode.EMAIL_TAKEN,
        errors: [{ path: 'email' }],
      });
      const other = await create({ username: 'carla', password: 'carla secret phrase' });
      expect(await failure(update(other.id, { username: 'Ben' }))).toMatchObject({
        code: ErrorCode.USERNAME_TAKEN,
      });
    });

    it('keeps the password when the update leaves it blank or out, and changes it when given', async () => {
      const user = await create({ username: 'dora', password: 'first secret phrase', firstName: 'Dora' });
      const hash = await hashOf(user.id);
      await update(user.id, { username: 'dora', password: '' });
      await update(user.id, { username: 'dora', lastName: 'Diaz' });
      expect(await hashOf(user.id)).toBe(hash);
      await update(user.id, { username: 'dora', password: 'second secret phrase' });
      expect(await failure(login('dora', 'first secret phrase'))).toMatchObject({
        code: ErrorCode.INVALID_CREDENTIALS,
      });
      await expect(login('dora', 'second secret phrase')).resolves.toMatchObject({
        firstName: 'Dora',
        lastName: 'Diaz',
      });
    });

    it('keeps fields an update leaves out: an edit without a role does not demote', async () => {
      const other = await create({ username: 'eve', password: 'eve secret phrase', role: 'admin' });
      const edited = await update(other.id, { username: 'eve-admin' });
      expect(edited).toMatchObject({ username: 'eve-admin', role: 'admin', isActive: 1 });
      await remove(other.id);
    });

    it('answers 404 for an unknown id', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      // Each failure is caught as soon as it is sent: one that rejects while an earlier one is
      // awaited would otherwise count as unhandled.
      const failures = await Promise.all(
        [
          send(messages.auth.getUser, { id: unknown }),
          update(unknown, { username: 'x' }),
          remove(unknown),
        ].map(failure),
      );
      for (const f of failures) expect(f).toMatchObject({ code: ErrorCode.USER_NOT_FOUND });
    });

    it('deletes a user, who can no longer sign in', async () => {
      const user = await create({ username: 'fred', password: 'fred secret phrase' });
      await remove(user.id);
      expect(await failure(login('fred', 'fred secret phrase'))).toMatchObject({
        code: ErrorCode.INVALID_CREDENTIALS,
      });
      expect(await failure(send(messages.auth.getUser, { id: user.id }))).toMatchObject({
        code: ErrorCode.USER_NOT_FOUND,
      });
    });
  });

  describe('administrators', () => {
    it('may not delete or deactivate themselves', async () => {
      const second = await create({ username: 'gina', password: 'gina secret phrase', role: 'admin' });
      try {
        expect(await failure(remove(admin.id, admin.id))).toEqual({
          code: ErrorCode.SELF_CHANGE,
          message: authMessages.selfDelete,
        });
        expect(await failure(update(admin.id, { username: 'chief', isActive: 0 }, admin.id))).toEqual({
          code: ErrorCode.SELF_CHANGE,
          message: authMessages.selfDeactivate,
        });
      } finally {
        await remove(second.id);
      }
    });

    it('keep the last active administrator: no deletion, demotion or deactivation of it', async () => {
      const other = await create({ username: 'hal', password: 'hal secret phrase', role: 'admin' });
      // Acting as hal on chief, the only other active administrator, once hal is a plain user.
      await update(other.id, { username: 'hal', role: 'user' });
      const lastAdmin = { code: ErrorCode.LAST_ADMIN, message: authMessages.lastAdmin };
      expect(await failure(update(admin.id, { username: 'chief', role: 'user' }, other.id))).toMatchObject(
        lastAdmin,
      );
      expect(await failure(update(admin.id, { username: 'chief', isActive: 0 }, other.id))).toMatchObject(
        lastAdmin,
      );
      expect(await failure(remove(admin.id, other.id))).toMatchObject(lastAdmin);
      await expect(login('chief', 'chief password')).resolves.toMatchObject({ role: 'admin', isActive: 1 });
      // An inactive administrator does not count.
      await update(other.id, { username: 'hal', role: 'admin', isActive: 0 });
      expect(await failure(remove(admin.id, other.id))).toMatchObject(lastAdmin);
      await remove(other.id);
    });

    it('lets exactly one of two concurrent demotions of the last two administrators pass', async () => {
      const second = await create({ username: 'iris', password: 'iris secret phrase', role: 'admin' });
      const third = await create({ username: 'jack', password: 'jack secret phrase' });
      const results = await Promise.allSettled([
        update(admin.id, { username: 'chief', role: 'user' }, third.id),
        update(second.id, { username: 'iris', role: 'user' }, third.id),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as AppError).code).toBe(ErrorCode.LAST_ADMIN);
      const admins = (await send(messages.auth.listUsers, {})).filter(
        (u) => u.role === 'admin' && u.isActive === 1,
      );
      expect(admins).toHaveLength(1);
      // Put chief back for the other tests.
      await update(admin.id, { username: 'chief', role: 'admin' }, third.id);
      await remove(second.id);
      await remove(third.id);
    });
  });

  describe('usernames', () => {
    it('stores the NFKC form, so that look-alike spellings are one username, case ignored', async () => {
      const kate = await create({ username: 'ｋａｔｅ', password: 'kate secret phrase' });
      expect(kate.username).toBe('kate');
      for (const username of ['kate', 'KATE', 'Ｋａｔｅ']) {
        expect(await failure(create({ username, password: 'x secret phrase' }))).toMatchObject({
          code: ErrorCode.USERNAME_TAKEN,
          errors: [{ path: 'username' }],
        });
      }
      const other = await create({ username: 'ﬁona', password: 'fiona secret phrase' });
      expect(other.username).toBe('fiona');
      expect(await failure(update(other.id, { username: 'ＫＡＴＥ' }))).toMatchObject({
        code: ErrorCode.USERNAME_TAKEN,
      });
      expect(await update(other.id, { username: 'ﬁona２' })).toMatchObject({ username: 'fiona2' });
    });

    it('signs in with any case or compatibility spelling of the username', async () => {
      const user = await create({ username: 'Lena', password: 'lena secret phrase' });
      for (const username of ['lena', 'LENA', 'Ｌｅｎａ']) {
        await expect(login(username, 'lena secret phrase')).resolves.toMatchObject({ id: user.id });
      }
    });

    it('refuses a new name mixing scripts, and still signs in one stored before the rule', async () => {
      // "іda" with a Cyrillic і: it looks like "ida".
      const lookAlike = '\u0456da';
      const message =
        "Username mixes Cyrillic and Latin letters, which can make it look like another user's name. Use the letters of one alphabet.";
      expect(await failure(create({ username: lookAlike, password: 'ida secret phrase' }))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message,
      });
      const ida = await create({ username: 'ida', password: 'ida secret phrase' });
      expect(await failure(update(ida.id, { username: lookAlike }))).toMatchObject({ message });
      await sut.app
        .get(DataSource)
        .query(`UPDATE "${sut.namespace}_auth".users SET username = $1 WHERE id = $2`, [lookAlike, ida.id]);
      await expect(login(lookAlike, 'ida secret phrase')).resolves.toMatchObject({ id: ida.id });
    });

    it('refuses control and zero-width characters, on create, update and sign-in', async () => {
      const message =
        'Username cannot contain control characters or invisible characters such as zero-width spaces';
      const refusal = { code: ErrorCode.VALIDATION_FAILED, message };
      expect(await failure(create({ username: 'mi\u200bla', password: 'x secret phrase' }))).toMatchObject(
        refusal,
      );
      const mila = await create({ username: 'mila', password: 'mila secret phrase' });
      expect(await failure(update(mila.id, { username: 'mila\u0000' }))).toMatchObject(refusal);
      expect(await failure(login('mi\u200dla', 'mila secret phrase'))).toMatchObject(refusal);
    });

    it('refuses a short or common new password, on create and on change, and keeps the current one', async () => {
      const tooShort = 'Password must be at least 12 characters';
      const common = 'This password is one of the 10,000 most common passwords. Choose a less common one.';
      for (const [password, message] of [
        ['eleven char', tooShort],
        ['qwerty123456', common],
        ['QWERTYQWERTY', common],
      ])
        expect([password, await failure(create({ username: 'pia', password }))]).toEqual([
          password,
          expect.objectContaining({ code: ErrorCode.VALIDATION_FAILED, message }),
        ]);
      const pia = await create({ username: 'pia', password: 'pia secret phrase' });
      expect(await failure(update(pia.id, { username: 'pia', password: '1qaz2wsx3edc' }))).toEqual({
        code: ErrorCode.VALIDATION_FAILED,
        message: common,
        errors: [{ path: 'password', message: common }],
      });
      await expect(login('pia', 'pia secret phrase')).resolves.toMatchObject({ id: pia.id });
    });

    it('refuses long passwords that are easy to guess, saying what to do instead', async () => {
      for (const password of ['aaaaaaaaaaaa', 'password1234', '123456789012', ' '.repeat(12)]) {
        const refusal = await failure(create({ username: 'quinn', password }));
        expect([password, refusal]).toEqual([
          password,
          {
            code: ErrorCode.VALIDATION_FAILED,
            message: expect.stringMatching(/^This password is too easy to guess\. .*Add more words/),
            errors: [{ path: 'password', message: refusal.message }],
          },
        ]);
      }
      const quinn = await create({ username: 'quinn', password: 'quinn secret phrase' });
      expect(await failure(update(quinn.id, { username: 'quinn', password: 'quinn1234567' }))).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message: expect.stringContaining(authMessages.weakPassword),
      });
    });

    it('answers every over-long field with its limit, never an internal error', async () => {
      const cases: [Partial<UserCreate>, string][] = [
        [{ email: `${'e'.repeat(64)}@${'x'.repeat(186)}.edu` }, 'Email must be at most 254 characters'],
        [{ firstName: 'f'.repeat(121) }, 'First name must be at most 120 characters'],
        [{ lastName: 'l'.repeat(121) }, 'Last name must be at most 120 characters'],
        [{ username: 'u'.repeat(65) }, 'Username must be at most 64 characters'],
        [{ username: '\ufdfa'.repeat(4) }, 'Username must be at most 64 characters'],
        [{ password: 'p'.repeat(257) }, 'Password must be at most 256 characters'],
      ];
      for (const [fields, message] of cases) {
        const refusal = await failure(
          create({ username: 'nina', password: 'nina secret phrase', ...fields }),
        );
        expect([fields, refusal]).toEqual([
          fields,
          expect.objectContaining({ code: ErrorCode.VALIDATION_FAILED, message }),
        ]);
      }
    });
  });

  describe('session version', () => {
    const versionOf = async (id: string) => (await send(messages.auth.getSessionUser, { id })).sessionVersion;

    it('goes up with a password change and a deactivation, and stays up after reactivation', async () => {
      const user = await create({ username: 'otto', password: 'otto secret phrase' });
      const signedIn = await send(messages.auth.login, { username: 'otto', password: 'otto secret phrase' });
      expect(signedIn).toEqual({ user: expect.objectContaining({ id: user.id }), sessionVersion: 0 });
      await update(user.id, { username: 'otto', firstName: 'Otto', role: 'user', password: '' });
      expect(await versionOf(user.id)).toBe(0);
      await update(user.id, { username: 'otto', password: 'new otto secret' });
      expect(await versionOf(user.id)).toBe(1);
      await update(user.id, { username: 'otto', isActive: 0 });
      expect(await versionOf(user.id)).toBe(2);
      await update(user.id, { username: 'otto', isActive: 1 });
      expect(await versionOf(user.id)).toBe(2);
      const reply = await send(messages.auth.updateUser, {
        actorId: admin.id,
        id: user.id,
        changes: { username: 'otto', password: 'third otto secret' },
      });
      expect(reply).toEqual({ user: expect.objectContaining({ id: user.id }), sessionVersion: 3 });
    });
  });

  describe('own password change', () => {
    const change = (userId: string, currentPassword: string, newPassword: string) =>
      send(messages.auth.changePassword, { userId, currentPassword, newPassword });

    it('needs the current password, ends older sessions and signs in with the new one only', async () => {
      const ruth = await create({ username: 'ruth', password: 'ruth secret phrase' });
      const wrong = {
        code: ErrorCode.INVALID_CREDENTIALS,
        message: authMessages.wrongCurrentPassword,
        errors: [{ path: 'currentPassword', message: authMessages.wrongCurrentPassword }],
      };
      expect(await failure(change(ruth.id, 'not it at all', 'ruth new phrase here'))).toEqual(wrong);

      const reply = await change(ruth.id, 'ruth secret phrase', 'ruth new phrase here');
      expect(reply).toEqual({ user: expect.objectContaining({ id: ruth.id }), sessionVersion: 1 });
      await expect(login('ruth', 'ruth new phrase here')).resolves.toMatchObject({ id: ruth.id });
      expect(await failure(login('ruth', 'ruth secret phrase'))).toMatchObject({
        code: ErrorCode.INVALID_CREDENTIALS,
      });
      // The old password no longer proves anything.
      expect(await failure(change(ruth.id, 'ruth secret phrase', 'ruth third phrase'))).toEqual(wrong);
    });

    it('holds the new password to the policy, and keeps the current one when refused', async () => {
      const sam = await create({ username: 'sam', password: 'sam secret phrase' });
      expect(await failure(change(sam.id, 'sam secret phrase', 'sam123456789'))).toEqual({
        code: ErrorCode.VALIDATION_FAILED,
        message: expect.stringContaining(authMessages.weakPassword),
        errors: [{ path: 'newPassword', message: expect.stringContaining(authMessages.weakPassword) }],
      });
      await expect(login('sam', 'sam secret phrase')).resolves.toMatchObject({ id: sam.id });
    });

    it('refuses a single sign-on user, who has no password here', async () => {
      const uma = await create({ username: 'uma', password: 'uma secret phrase' });
      // What a first sign-in through the identity provider leaves: no password hash.
      await sut.app
        .get(DataSource)
        .query(
          `UPDATE "${sut.namespace}_auth".users SET external_issuer = 'https://idp.test', ` +
            `external_subject = 'uma', password_hash = NULL WHERE id = $1`,
          [uma.id],
        );
      expect(await failure(change(uma.id, 'uma secret phrase', 'uma new phrase here'))).toMatchObject({
        code: ErrorCode.EXTERNAL_ACCOUNT,
        message: authMessages.externalPassword,
      });
    });
  });

  describe('two-factor sign-in without AUTH_TOTP_KEY', () => {
    it('refuses enrolment, saying which setting is missing, and signs in with the password alone', async () => {
      const user = await create({ username: 'tess', password: 'tess secret phrase' });
      expect(await send(messages.auth.totpStatus, { userId: user.id })).toEqual({
        enabled: false,
        recoveryCodesLeft: 0,
        available: false,
      });
      expect(await failure(send(messages.auth.totpSetup, { userId: user.id }))).toMatchObject({
        code: ErrorCode.TOTP_UNAVAILABLE,
        message: totpMessages.unavailable,
      });
      expect(await login('tess', 'tess secret phrase')).toMatchObject({
        username: 'tess',
        totpEnabled: false,
        external: false,
      });
    });
  });
});
