import { authMessages, ErrorCode, messages, type User } from '@cm/contracts';
import { RpcClient } from '@cm/platform';
import { DataSource } from 'typeorm';
import { SESSION_ROW_TTL_MS, SessionStore } from '../src/session/session-store';
import {
  adminCredentials,
  fetch,
  sessionCookieOf,
  signIn,
  startAuthAndGateway,
  startGateway,
} from './support';

describe('sign-in and sessions', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let admin: string;

  const login = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sut.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const me = (cookie?: string, base = sut.base) =>
    fetch(`${base}/api/auth/user`, { headers: cookie ? { cookie } : {} });
  const asAdmin = (path: string, method: string, body?: unknown) =>
    fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie: admin, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const createUser = async (username: string, password: string, role: 'user' | 'admin' = 'user') => {
    const res = await asAdmin('/api/users', 'POST', { username, password, role });
    expect(res.status).toBe(201);
    return (await res.json()) as User;
  };
  const sessionRows = async () =>
    Number(
      (
        (await sut.gateway.app
          .get(DataSource)
          .query(`SELECT count(*) AS n FROM "${sut.namespace}_gateway".sessions`)) as { n: string }[]
      )[0].n,
    );

  const sessionsOf = async (userId: string) =>
    Number(
      (
        (await sut.gateway.app
          .get(DataSource)
          .query(`SELECT count(*) AS n FROM "${sut.namespace}_gateway".sessions WHERE user_id = $1`, [
            userId,
          ])) as { n: string }[]
      )[0].n,
    );

  beforeAll(async () => {
    sut = await startAuthAndGateway();
    admin = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  describe('POST /api/login', () => {
    it('answers the user without its password and sets an HttpOnly, SameSite=Lax session cookie', async () => {
      const res = await login(adminCredentials);
      expect(res.status).toBe(200);
      const user = (await res.json()) as User;
      expect(user).toMatchObject({ username: 'chief', role: 'admin', isActive: 1 });
      expect(Object.keys(user)).not.toContain('password');
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cm.sid='));
      expect(cookie).toMatch(/^cm\.sid=s%3A/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).toMatch(/; Expires=/);
      // Plain HTTP here: a Secure cookie would never come back.
      expect(cookie).not.toMatch(/Secure/);
    });

    it('answers 400 with the schema messages when a field is missing, both when both are', async () => {
      const cases: [unknown, string][] = [
        [{}, 'Username is required. Password is required'],
        [{ username: 'chief' }, 'Password is required'],
        [{ password: 'x' }, 'Username is required'],
        [{ username: '   ', password: '' }, 'Username is required. Password is required'],
      ];
      for (const [body, message] of cases) {
        const res = await login(body);
        expect([body, res.status]).toEqual([body, 400]);
        expect(await res.json()).toMatchObject({ code: ErrorCode.VALIDATION_FAILED, message });
      }
    });

    it('answers a wrong password and an unknown user alike: 401 "Invalid username or password", no cookie', async () => {
      const wrong = await login({ username: 'chief', password: 'not the password' });
      const unknown = await login({ username: 'nobody', password: 'not the password' });
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.headers.getSetCookie()).toEqual([]);
        expect(await res.json()).toEqual({
          code: ErrorCode.INVALID_CREDENTIALS,
          message: 'Invalid username or password',
        });
      }
    });

    it('refuses a deactivated user with the right password as if the password were wrong', async () => {
      const user = await createUser('resting', 'resting secret');
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'resting', isActive: 0 });
      const res = await login({ username: 'resting', password: 'resting secret' });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: ErrorCode.INVALID_CREDENTIALS,
        message: authMessages.invalidCredentials,
      });
      expect(res.headers.getSetCookie()).toEqual([]);
    });

    it('issues a new session id at sign-in, and the one sent along stops working', async () => {
      const before = (await sut.signInAdmin()).cookie;
      const res = await login(adminCredentials, { cookie: before });
      const after = sessionCookieOf(res)!;
      expect(after).not.toBe(before);
      expect((await me(after)).status).toBe(200);
      expect((await me(before)).status).toBe(401);
    });
  });

  describe('GET /api/auth/user', () => {
    it('answers the signed-in user, and 401 to anyone else', async () => {
      const res = await me(admin);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ username: 'chief', role: 'admin' });
      const anonymous = await me();
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({
        code: ErrorCode.UNAUTHENTICATED,
        message: 'Sign in to continue.',
      });
    });

    it('answers 401 to a forged, tampered or expired cookie', async () => {
      const { cookie } = await sut.signInAdmin();
      const tampered = cookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      expect((await me(tampered)).status).toBe(401);
      expect((await me('cm.sid=s%3Aforged.signature')).status).toBe(401);
      await sut.gateway.app
        .get(DataSource)
        .query(`UPDATE "${sut.namespace}_gateway".sessions SET expire = now() - interval '1 minute'`);
      expect((await me(cookie)).status).toBe(401);
      admin = (await sut.signInAdmin()).cookie;
    });
  });

  describe('sign-out', () => {
    it('POST /api/logout ends the session, deletes it, and clears the cookie', async () => {
      const { cookie } = await sut.signInAdmin();
      const rows = await sessionRows();
      const res = await fetch(`${sut.base}/api/logout`, { method: 'POST', headers: { cookie } });
      expect(res.status).toBe(204);
      expect(res.headers.getSetCookie()[0]).toMatch(/^cm\.sid=;.*Expires=Thu, 01 Jan 1970/);
      expect((await me(cookie)).status).toBe(401);
      expect(await sessionRows()).toBe(rows - 1);
    });

    it('answers 204 to a sign-out without a session', async () => {
      expect((await fetch(`${sut.base}/api/logout`, { method: 'POST' })).status).toBe(204);
    });

    /** The sign-out token the gateway hands a signed-in browser, as the web app reads it. */
    const signOutTokenOf = async (cookie: string) => {
      const set = (await me(cookie)).headers.getSetCookie().find((c) => c.startsWith('cm.signout='));
      expect(set).toMatch(/^cm\.signout=[\w-]{43}; Path=\/; SameSite=Strict$/);
      return set!.split(';')[0].slice('cm.signout='.length);
    };
    const navigate = (cookie: string, query = '') =>
      fetch(`${sut.base}/api/logout${query}`, { headers: { cookie }, redirect: 'manual' });

    it("GET /api/logout with the session's sign-out token (where the web app navigates when POST fails) signs out and redirects to /", async () => {
      const { cookie } = await sut.signInAdmin();
      const token = await signOutTokenOf(cookie);
      const res = await navigate(`${cookie}; cm.signout=${token}`, `?token=${token}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual(['cm.sid', 'cm.signout']);
      expect((await me(cookie)).status).toBe(401);
    });

    it('GET /api/logout without the token (a stored picture, a link) keeps the session and redirects to /', async () => {
      const { cookie } = await sut.signInAdmin();
      const token = await signOutTokenOf(cookie);
      const other = await signOutTokenOf((await sut.signInAdmin()).cookie);
      expect(other).not.toBe(token);
      for (const query of [
        '',
        '?token=',
        `?token=${other}`,
        `?token=${token.slice(0, -1)}`,
        `?token=${token}x`,
      ]) {
        const res = await navigate(`${cookie}; cm.signout=${token}`, query);
        expect([query, res.status, res.headers.get('location')]).toEqual([query, 303, '/']);
        expect((await me(cookie)).status).toBe(200);
      }
    });

    it('hands the sign-out token only to a signed-in browser, and only while it lacks it', async () => {
      expect((await fetch(`${sut.base}/api/auth/user`)).headers.getSetCookie()).toEqual([]);
      const { cookie } = await sut.signInAdmin();
      const token = await signOutTokenOf(cookie);
      const again = await me(`${cookie}; cm.signout=${token}`);
      expect(again.headers.getSetCookie().filter((c) => c.startsWith('cm.signout='))).toEqual([]);
    });
  });

  describe('a signed-in user who loses the account', () => {
    it('is signed out at the next request when deactivated', async () => {
      const user = await createUser('leaving', 'leaving secret');
      const { cookie } = await sut.signIn('leaving', 'leaving secret');
      expect((await me(cookie)).status).toBe(200);
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'leaving', isActive: 0 });
      expect((await me(cookie)).status).toBe(401);
    });

    it('loses every session when deleted', async () => {
      const user = await createUser('deleted', 'deleted secret');
      const first = (await sut.signIn('deleted', 'deleted secret')).cookie;
      const second = (await sut.signIn('deleted', 'deleted secret')).cookie;
      expect((await asAdmin(`/api/users/${user.id}`, 'DELETE')).status).toBe(204);
      expect(await sessionsOf(user.id)).toBe(0);
      expect((await me(first)).status).toBe(401);
      expect((await me(second)).status).toBe(401);
    });

    it('loses every session, on every replica, when an administrator changes the password', async () => {
      const replica = await startGateway(sut.namespace);
      try {
        const user = await createUser('moving', 'moving secret');
        const here = (await sut.signIn('moving', 'moving secret')).cookie;
        const there = (await signIn(replica.base, 'moving', 'moving secret')).cookie;
        const res = await asAdmin(`/api/users/${user.id}`, 'PUT', {
          username: 'moving',
          password: 'moved secret',
        });
        expect(res.status).toBe(200);
        expect(await sessionsOf(user.id)).toBe(0);
        expect((await me(here)).status).toBe(401);
        expect((await me(there, replica.base)).status).toBe(401);
        expect((await me(here, replica.base)).status).toBe(401);
        expect((await login({ username: 'moving', password: 'moving secret' })).status).toBe(401);
        expect((await me((await sut.signIn('moving', 'moved secret')).cookie)).status).toBe(200);
      } finally {
        await replica.close();
      }
    });

    it('keeps the session of an administrator who changes their own password, and ends their others', async () => {
      const deputy = await createUser('second-chief', 'second secret', 'admin');
      const own = (await sut.signIn('second-chief', 'second secret')).cookie;
      const other = (await sut.signIn('second-chief', 'second secret')).cookie;
      const res = await fetch(`${sut.base}/api/users/${deputy.id}`, {
        method: 'PUT',
        headers: { cookie: own, 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'second-chief', password: 'new second secret' }),
      });
      expect(res.status).toBe(200);
      expect((await me(other)).status).toBe(401);
      expect((await fetch(`${sut.base}/api/users`, { headers: { cookie: own } })).status).toBe(200);
      expect(await sessionsOf(deputy.id)).toBe(1);
    });

    it('keeps the sessions of a user whose other fields change', async () => {
      const user = await createUser('renamed', 'renamed secret');
      const { cookie } = await sut.signIn('renamed', 'renamed secret');
      await asAdmin(`/api/users/${user.id}`, 'PUT', {
        username: 'renamed-now',
        firstName: 'Rena',
        password: '',
      });
      expect(await (await me(cookie)).json()).toMatchObject({ username: 'renamed-now', firstName: 'Rena' });
    });

    it('loses every session when deactivated, and reactivation does not bring them back', async () => {
      const user = await createUser('paused', 'paused secret');
      const first = (await sut.signIn('paused', 'paused secret')).cookie;
      const second = (await sut.signIn('paused', 'paused secret')).cookie;
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'paused', isActive: 0 });
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'paused', isActive: 1 });
      expect(await sessionsOf(user.id)).toBe(0);
      // Neither session was used while the account was inactive.
      expect((await me(first)).status).toBe(401);
      expect((await me(second)).status).toBe(401);
      expect((await me((await sut.signIn('paused', 'paused secret')).cookie)).status).toBe(200);
    });

    it('loses a session still in the table when the password changed by another way than a gateway', async () => {
      const user = await createUser('elsewhere', 'elsewhere secret');
      const { cookie } = await sut.signIn('elsewhere', 'elsewhere secret');
      const { id: actorId } = (await sut.signInAdmin()).user;
      await sut.gateway.app.get(RpcClient).send(messages.auth.updateUser, {
        actorId,
        id: user.id,
        changes: { username: 'elsewhere', password: 'changed elsewhere' },
      });
      expect(await sessionsOf(user.id)).toBe(1);
      // Auth's notice of the change reaches the gateway within a second, not with the reply.
      const deadline = Date.now() + 1000;
      let status = (await me(cookie)).status;
      while (status !== 401 && Date.now() < deadline) status = (await me(cookie)).status;
      expect(status).toBe(401);
      expect(await sessionsOf(user.id)).toBe(0);
    });

    it('loses administrator routes at once when demoted', async () => {
      const user = await createUser('deputy', 'deputy secret');
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'deputy', role: 'admin' });
      const { cookie } = await sut.signIn('deputy', 'deputy secret');
      expect((await fetch(`${sut.base}/api/users`, { headers: { cookie } })).status).toBe(200);
      await asAdmin(`/api/users/${user.id}`, 'PUT', { username: 'deputy', role: 'user' });
      expect((await fetch(`${sut.base}/api/users`, { headers: { cookie } })).status).toBe(403);
    });
  });

  describe('account fields', () => {
    it('answers 400 with a reason, not 500, to an over-long email and to an invisible character in a username', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ email: `${'e'.repeat(64)}@${'x'.repeat(186)}.edu` }, 'Email must be at most 254 characters'],
        [
          { username: 'zero\u200bwidth' },
          'Username cannot contain control characters or invisible characters such as zero-width spaces',
        ],
      ];
      for (const [fields, message] of cases) {
        const res = await asAdmin('/api/users', 'POST', {
          username: 'field-test',
          password: 'secret phrase',
          ...fields,
        });
        expect([fields, res.status, await res.json()]).toEqual([
          fields,
          400,
          expect.objectContaining({ code: ErrorCode.VALIDATION_FAILED, message }),
        ]);
      }
    });
  });

  describe('the absolute lifetime (SESSION_ABSOLUTE_HOURS, 168 by default)', () => {
    const hours = (n: number) => n * 3600 * 1000;
    const clock = () => jest.spyOn(sut.gateway.app.get(SessionStore), 'now');
    const sidOf = (cookie: string) => /^cm\.sid=s:([^.]+)\./.exec(decodeURIComponent(cookie))![1];
    afterEach(() => jest.restoreAllMocks());

    it('ends a session 168 hours after sign-in, however busy it was', async () => {
      const signedInAt = Date.now();
      const at = clock().mockReturnValue(signedInAt);
      const { cookie } = await sut.signInAdmin();
      // A request every now and then: the session is never idle.
      for (const later of [1, 100, 167.9]) {
        at.mockReturnValue(signedInAt + hours(later));
        expect([later, (await me(cookie)).status]).toEqual([later, 200]);
      }
      at.mockReturnValue(signedInAt + hours(168) + 1000);
      expect((await me(cookie)).status).toBe(401);
      const table = `"${sut.namespace}_gateway".sessions`;
      expect(
        await sut.gateway.app.get(DataSource).query(`SELECT 1 FROM ${table} WHERE sid = $1`, [sidOf(cookie)]),
      ).toEqual([]);
      // Signing in again starts the count again.
      expect((await me((await sut.signInAdmin()).cookie)).status).toBe(200);
    });

    it('has the cookie and the stored session expire at the absolute end when it comes before the idle one', async () => {
      const signedInAt = Date.now();
      const at = clock().mockReturnValue(signedInAt);
      const { cookie } = await sut.signInAdmin();
      at.mockReturnValue(signedInAt + hours(167));
      const res = await me(cookie);
      expect(res.status).toBe(200);
      // About one hour is left, far less than the 24 hours of idle time.
      // A GET also hands the browser its sign-out token cookie: read the session's own.
      const sessionSetCookie = res.headers.getSetCookie().find((c) => c.startsWith('cm.sid='));
      const expires = Date.parse(/; Expires=([^;]+)/.exec(sessionSetCookie ?? '')![1]);
      expect(expires - Date.now()).toBeLessThan(hours(2));
      const [row] = (await sut.gateway.app
        .get(DataSource)
        .query(
          `SELECT expire < now() + interval '2 hours' AS soon FROM "${sut.namespace}_gateway".sessions WHERE sid = $1`,
          [sidOf(cookie)],
        )) as { soon: boolean }[];
      expect(row).toEqual({ soon: true });
    });

    it('ends a session without a sign-in time, as sessions from before these rules have none', async () => {
      const { cookie } = await sut.signInAdmin();
      await sut.gateway.app
        .get(DataSource)
        .query(
          `UPDATE "${sut.namespace}_gateway".sessions SET sess = (sess::jsonb - 'signedInAt')::json WHERE sid = $1`,
          [sidOf(cookie)],
        );
      expect((await me(cookie)).status).toBe(401);
    });
  });

  describe('the idle timeout (SESSION_MAX_AGE_HOURS, 24 by default)', () => {
    const sidOf = (cookie: string) => /^cm\.sid=s:([^.]+)\./.exec(decodeURIComponent(cookie))![1];
    const table = () => `"${sut.namespace}_gateway".sessions`;
    /** The row's expiry, and the id of the transaction that last wrote it (any write changes it). */
    const rowOf = async (cookie: string) =>
      (
        (await sut.gateway.app
          .get(DataSource)
          .query(`SELECT expire, xmin::text AS version FROM ${table()} WHERE sid = $1`, [sidOf(cookie)])) as {
          expire: Date;
          version: string;
        }[]
      )[0];
    const setExpiry = (cookie: string, sql: string) =>
      sut.gateway.app
        .get(DataSource)
        .query(`UPDATE ${table()} SET expire = ${sql} WHERE sid = $1`, [sidOf(cookie)]);
    const hours = (n: number) => n * 3600 * 1000;

    it('writes the session row once for requests in quick succession, while the expiry would move by under a minute', async () => {
      const { cookie } = await sut.signInAdmin();
      const signedIn = await rowOf(cookie);
      expect(signedIn.expire.getTime() - Date.now()).toBeGreaterThan(hours(24) - 60_000);
      for (let i = 0; i < 3; i++) expect((await me(cookie)).status).toBe(200);
      expect(await rowOf(cookie)).toEqual(signedIn);
    });

    it('writes the expiry again once it would move by a minute or more', async () => {
      const { cookie } = await sut.signInAdmin();
      // As if the last renewal was two minutes ago.
      await setExpiry(cookie, "expire - interval '2 minutes'");
      const before = await rowOf(cookie);
      expect((await me(cookie)).status).toBe(200);
      const after = await rowOf(cookie);
      expect(after.version).not.toBe(before.version);
      expect(after.expire.getTime() - before.expire.getTime()).toBeGreaterThan(60_000);
      expect(Math.abs(after.expire.getTime() - (Date.now() + hours(24)))).toBeLessThan(60_000);
    });

    it('ends a session the idle timeout after its expiry was last written', async () => {
      const { cookie } = await sut.signInAdmin();
      // As if the last request that renewed it was 24 hours ago.
      await setExpiry(cookie, "now() - interval '1 second'");
      expect((await me(cookie)).status).toBe(401);
    });

    it('sees an expiry changed in the table by hand once the row it kept is older than SESSION_ROW_TTL_MS', async () => {
      const { cookie } = await sut.signInAdmin();
      expect((await me(cookie)).status).toBe(200);
      await setExpiry(cookie, "now() - interval '1 second'");
      const deadline = Date.now() + SESSION_ROW_TTL_MS + 1000;
      let status: number;
      do status = (await me(cookie)).status;
      while (status !== 401 && Date.now() < deadline);
      expect(status).toBe(401);
    });

    it('sends the session cookie again when it writes the new expiry, and not on every answer', async () => {
      const sessionCookieSet = (res: Response) =>
        res.headers.getSetCookie().filter((c) => c.startsWith('cm.sid='));
      const { cookie } = await sut.signInAdmin();
      expect(sessionCookieSet(await me(cookie))).toEqual([]);
      const renewedAt = Date.now();
      await setExpiry(cookie, "expire - interval '2 minutes'");
      // The row the gateway kept shows the old expiry for up to SESSION_ROW_TTL_MS.
      let renewed: string[] = [];
      while (renewed.length === 0 && Date.now() < renewedAt + SESSION_ROW_TTL_MS + 1000)
        renewed = sessionCookieSet(await me(cookie));
      expect(renewed).toHaveLength(1);
      expect(renewed[0].startsWith(cookie)).toBe(true);
      expect(renewed[0]).toMatch(/; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax$/);
      const expires = Date.parse(/; Expires=([^;]+)/.exec(renewed[0])![1]);
      expect(Math.abs(expires - (Date.now() + hours(24)))).toBeLessThan(60_000);
      expect(sessionCookieSet(await me(cookie))).toEqual([]);
    });
  });

  it('prunes expired sessions from the table', async () => {
    const db = sut.gateway.app.get(DataSource);
    const table = `"${sut.namespace}_gateway".sessions`;
    await db.query(
      `INSERT INTO ${table} (sid, sess, expire) VALUES ('stale', '{"cookie":{}}', now() - interval '1 day')`,
    );
    await sut.gateway.app.get(SessionStore).prune();
    expect(await db.query(`SELECT sid FROM ${table} WHERE sid = 'stale'`)).toEqual([]);
    expect((await me(admin)).status).toBe(200);
  });

  it('keeps sessions across a gateway restart', async () => {
    const { cookie } = await sut.signInAdmin();
    await sut.restartGateway();
    const res = await me(cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ username: 'chief' });
    admin = (await sut.signInAdmin()).cookie;
  });

  it('marks the cookie Secure behind a trusted proxy that received HTTPS, and only then', async () => {
    const proxied = await startGateway(sut.namespace, { TRUST_PROXY: 'loopback' });
    try {
      const viaProxy = async (base: string) =>
        (
          await fetch(`${base}/api/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
            body: JSON.stringify(adminCredentials),
          })
        ).headers
          .getSetCookie()
          .find((c) => c.startsWith('cm.sid='));
      expect(await viaProxy(proxied.base)).toMatch(/; Secure/);
      expect(await viaProxy(sut.base)).not.toMatch(/Secure/);
    } finally {
      await proxied.close();
    }
  });
});
