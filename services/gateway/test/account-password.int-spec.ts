import { type AuditPage, authMessages, ErrorCode, type User } from '@cm/contracts';
import { DataSource } from 'typeorm';
import { openEvents } from './sse-client';
import { adminCredentials, fetch, sessionCookieOf, startAuthAndGateway } from './support';

describe('changing one’s own password (Account screen)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;
  /** Each test signs in from an address of its own, so that one's failures never hold back another. */
  let client = 0;
  let ip: string;

  const call = (path: string, { cookie, body }: { cookie?: string; body?: unknown } = {}) =>
    fetch(`${sut.base}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const signIn = async (username: string, password: string) => {
    const res = await call('/api/login', { body: { username, password } });
    return { status: res.status, cookie: sessionCookieOf(res) };
  };
  const newUser = async (username: string) => {
    const res = await call('/api/users', {
      cookie: admin,
      body: { username, password: `${username} secret phrase` },
    });
    expect(res.status).toBe(201);
    const user = (await res.json()) as User;
    const { cookie } = await signIn(username, `${username} secret phrase`);
    return { user, cookie: cookie! };
  };
  const changePassword = (cookie: string, currentPassword: string, newPassword: string) =>
    call('/api/account/password', { cookie, body: { currentPassword, newPassword } });
  const me = async (cookie: string) => (await call('/api/auth/user', { cookie })).status;

  beforeAll(async () => {
    sut = await startAuthAndGateway({ TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES: '3' });
    ip = '10.2.0.1';
    admin = (await signIn(adminCredentials.username, adminCredentials.password)).cookie!;
  });
  beforeEach(() => {
    ip = `10.2.1.${++client}`;
  });
  afterAll(() => sut?.close());

  it('keeps this session and its live stream, ends the others, and signs in with the new password only', async () => {
    const { user, cookie } = await newUser('vera');
    const other = (await signIn('vera', 'vera secret phrase')).cookie!;
    const ownStream = await openEvents(sut.base, cookie);
    const otherStream = await openEvents(sut.base, other);
    await ownStream.next((e) => e.event === 'ready');
    await otherStream.next((e) => e.event === 'ready');

    const res = await changePassword(cookie, 'vera secret phrase', 'vera picks a new phrase');
    expect(res.status).toBe(204);
    await otherStream.next((e) => e.event === 'ended');
    expect(await me(other)).toBe(401);
    // Both streams were checked at the same notice: the other one's end means this one's check is done.
    expect(await me(cookie)).toBe(200);
    expect(ownStream.events.map((e) => e.event)).not.toContain('ended');
    expect(ownStream.ended()).toBe(false);
    ownStream.close();
    expect((await signIn('vera', 'vera secret phrase')).status).toBe(401);
    expect((await signIn('vera', 'vera picks a new phrase')).status).toBe(200);

    const audit = await call(`/api/audit?entityType=user&entityId=${user.id}`, { cookie: admin });
    const { items } = (await audit.json()) as AuditPage;
    expect(items.filter((e) => e.action === 'update')).toEqual([
      expect.objectContaining({
        actorName: 'vera',
        before: { password: '[redacted]' },
        after: { password: '[redacted]' },
      }),
    ]);
    const written = JSON.stringify(items);
    for (const password of ['vera secret phrase', 'vera picks a new phrase'])
      expect(written).not.toContain(password);
  });

  it('refuses a wrong current password, naming the field, and throttles guesses like sign-in', async () => {
    const { cookie } = await newUser('walt');
    const res = await changePassword(cookie, 'not my password', 'walt picks a new phrase');
    expect([res.status, await res.json()]).toEqual([
      401,
      {
        code: ErrorCode.INVALID_CREDENTIALS,
        message: authMessages.wrongCurrentPassword,
        errors: [{ path: 'currentPassword', message: authMessages.wrongCurrentPassword }],
      },
    ]);
    // The session is not signed out by a wrong guess.
    expect(await me(cookie)).toBe(200);
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await changePassword(cookie, 'still not it', 'walt picks a new phrase')).status);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await signIn('walt', 'walt secret phrase')).status).toBe(429);
  });

  it('refuses a new password that is easy to guess, saying what to do, and keeps the current one', async () => {
    const { cookie } = await newUser('xena');
    for (const newPassword of ['aaaaaaaaaaaa', 'password1234', 'xena12345678']) {
      const res = await changePassword(cookie, 'xena secret phrase', newPassword);
      const body = (await res.json()) as { code: string; message: string; errors: unknown };
      expect([newPassword, res.status, body]).toEqual([
        newPassword,
        400,
        {
          code: ErrorCode.VALIDATION_FAILED,
          message: expect.stringContaining(authMessages.weakPassword),
          errors: [{ path: 'newPassword', message: body.message }],
        },
      ]);
    }
    const short = await changePassword(cookie, 'xena secret phrase', 'too short');
    expect([short.status, ((await short.json()) as { message: string }).message]).toEqual([
      400,
      authMessages.passwordTooShort,
    ]);
    expect((await signIn('xena', 'xena secret phrase')).status).toBe(200);
  });

  it('refuses a single sign-on user, who has no password here', async () => {
    const { user, cookie } = await newUser('yuri');
    // What a sign-in through the identity provider leaves: an external identity and no password hash.
    await sut.gateway.app
      .get(DataSource)
      .query(
        `UPDATE "${sut.namespace}_auth".users SET external_issuer = 'https://idp.test', ` +
          `external_subject = 'yuri', password_hash = NULL WHERE id = $1`,
        [user.id],
      );
    const res = await changePassword(cookie, 'yuri secret phrase', 'yuri picks a new phrase');
    expect([res.status, await res.json()]).toEqual([
      409,
      expect.objectContaining({ code: ErrorCode.EXTERNAL_ACCOUNT, message: authMessages.externalPassword }),
    ]);
  });
});
