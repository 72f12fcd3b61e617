import { createHash, randomBytes } from 'node:crypto';
import {
  type ApiToken,
  type ApiTokenCreated,
  apiTokenMessages,
  apiTokenScopeRefused,
  ErrorCode,
  type RecoveryCodes,
  type TotpSetup,
  type User,
} from '@cm/contracts';
import { Secret, TOTP } from 'otpauth';
import { DataSource } from 'typeorm';
import { ApiTokenScopes1764613000000 } from '../src/migrations/1764613000000-api-token-scopes';
import { fetch, startAuthAndGateway } from './support';

/** The code an authenticator app shows `offsetSeconds` from now. */
const codeOf = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
const keeper = { username: 'keeper', password: 'keeper secret phrase' };

describe('API tokens', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let keeperCookie: string;
  let keeperUser: User;

  const call = async (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: unknown },
  ) => {
    const res = await fetch(`${sut.base}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'content-type': 'application/json', ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, text };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const create = async (cookie: string, body: Record<string, unknown>) => {
    const res = await call('/api/tokens', { method: 'POST', headers: { cookie }, body });
    expect(res).toMatchObject({ status: 201 });
    return res.body as unknown as ApiTokenCreated;
  };
  const table = () => `"${sut.namespace}_gateway".api_tokens`;
  const query = <T>(sql: string, params: unknown[] = []) =>
    sut.gateway.app.get(DataSource).query(sql, params) as Promise<T>;
  const refused = {
    status: 401,
    body: { code: ErrorCode.UNAUTHENTICATED, message: apiTokenMessages.invalid },
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      {},
      { inventory: true, authEnv: { AUTH_TOTP_KEY: randomBytes(32).toString('base64') } },
    );
    const made = await call('/api/users', {
      method: 'POST',
      headers: { cookie: await sut.adminCookie() },
      body: keeper,
    });
    expect(made.status).toBe(201);
    ({ cookie: keeperCookie, user: keeperUser } = await sut.signIn(keeper.username, keeper.password));
  });
  afterAll(() => sut?.close());

  it('answers the token once, keeps only its SHA-256, and lists it without it', async () => {
    const created = await create(keeperCookie, { name: 'Nightly export', expiresAt: inAWeek() });
    expect(created).toMatchObject({
      name: 'Nightly export',
      role: 'user',
      userId: keeperUser.id,
      lastUsedAt: null,
    });
    expect(created.token).toMatch(/^cm_[A-Za-z0-9_-]{43}$/);

    const rows = await query<{ token_hash: string }[]>(`SELECT token_hash FROM ${table()} WHERE id = $1`, [
      created.id,
    ]);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(created.token).digest('hex'));

    const listed = await call('/api/tokens', { headers: { cookie: keeperCookie } });
    expect(listed.status).toBe(200);
    expect(listed.body).toContainEqual(expect.objectContaining({ id: created.id, name: 'Nightly export' }));
    expect(listed.text).not.toContain(created.token);
    // Someone else's list does not show it.
    const others = await call('/api/tokens', { headers: { cookie: await sut.adminCookie() } });
    expect((others.body as unknown as ApiToken[]).map((t) => t.id)).not.toContain(created.id);
  });

  it('acts as its user on /api with no cookie and no Origin check, and records the last use once a minute', async () => {
    const { id, token } = await create(keeperCookie, {
      name: 'Inventory sync',
      scope: 'write',
      expiresAt: inAWeek(),
    });
    const listed = await call('/api/buildings', { headers: bearer(token) });
    expect(listed.status).toBe(200);
    // A program's request: a foreign Origin is no forgery when the credential is a header it set itself.
    const made = await call('/api/buildings', {
      method: 'POST',
      headers: { ...bearer(token), origin: 'https://elsewhere.example' },
      body: { name: 'Token Hall' },
    });
    expect(made).toMatchObject({ status: 201, body: { name: 'Token Hall' } });

    const lastUsed = async () =>
      (
        await query<{ last_used_at: Date | null }[]>(`SELECT last_used_at FROM ${table()} WHERE id = $1`, [
          id,
        ])
      )[0].last_used_at;
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await call('/api/buildings', { headers: bearer(token) });
    expect(await lastUsed()).toEqual(first);
    const shown = (await call('/api/tokens', { headers: { cookie: keeperCookie } }))
      .body as unknown as ApiToken[];
    expect(shown.find((t) => t.id === id)?.lastUsedAt).toBe(first!.toISOString());
  });

  it('never has a higher role than its creator, and an admin token with the user role is refused admin routes', async () => {
    const tooHigh = await call('/api/tokens', {
      method: 'POST',
      headers: { cookie: keeperCookie },
      body: { name: 'Escalate', role: 'admin', expiresAt: inAWeek() },
    });
    expect(tooHigh).toMatchObject({ status: 403, body: { message: apiTokenMessages.roleTooHigh } });
    expect(
      (
        await call('/api/users', {
          headers: bearer((await create(keeperCookie, { name: 'u', expiresAt: inAWeek() })).token),
        })
      ).status,
    ).toBe(403);

    const admin = await sut.adminCookie();
    const asAdmin = await create(admin, { name: 'Admin automation', scope: 'admin', expiresAt: inAWeek() });
    expect(asAdmin).toMatchObject({ role: 'admin', scope: 'admin' });
    expect((await call('/api/users', { headers: bearer(asAdmin.token) })).status).toBe(200);
    const limited = await create(admin, { name: 'Read only', role: 'user', expiresAt: inAWeek() });
    expect((await call('/api/users', { headers: bearer(limited.token) })).status).toBe(403);
    expect((await call('/api/buildings', { headers: bearer(limited.token) })).status).toBe(200);
  });

  it('reads only unless given the write scope: a read token is refused changes with the scope it needs, a write token makes them', async () => {
    const reader = await create(keeperCookie, { name: 'Dashboard', expiresAt: inAWeek() });
    expect(reader.scope).toBe('read');
    expect((await call('/api/buildings', { headers: bearer(reader.token) })).status).toBe(200);
    expect(
      await call('/api/buildings', {
        method: 'POST',
        headers: bearer(reader.token),
        body: { name: 'Read Hall' },
      }),
    ).toMatchObject({
      status: 403,
      body: { code: ErrorCode.FORBIDDEN, message: apiTokenScopeRefused('read', 'write') },
    });
    expect((await call('/api/buildings', { headers: bearer(reader.token) })).text).not.toContain('Read Hall');

    const writer = await create(keeperCookie, { name: 'Sync', scope: 'write', expiresAt: inAWeek() });
    const made = await call('/api/buildings', {
      method: 'POST',
      headers: bearer(writer.token),
      body: { name: 'Write Hall' },
    });
    expect(made).toMatchObject({ status: 201, body: { name: 'Write Hall' } });
    expect(
      (
        await call(`/api/buildings/${String(made.body!.id)}`, {
          method: 'DELETE',
          headers: bearer(writer.token),
        })
      ).status,
    ).toBe(204);

    // An administrator's write token does not reach administrator routes: that is the admin scope.
    const adminWriter = await create(await sut.adminCookie(), {
      name: 'Admin sync',
      scope: 'write',
      expiresAt: inAWeek(),
    });
    expect(adminWriter.role).toBe('user');
    expect(await call('/api/users', { headers: bearer(adminWriter.token) })).toMatchObject({
      status: 403,
      body: { message: apiTokenScopeRefused('write', 'admin') },
    });
  });

  it('gives the admin scope to administrators only, with a current two-factor code when they have two-factor on', async () => {
    const refused = await call('/api/tokens', {
      method: 'POST',
      headers: { cookie: keeperCookie },
      body: { name: 'Escalate', scope: 'admin', expiresAt: inAWeek() },
    });
    expect(refused).toMatchObject({ status: 403, body: { message: apiTokenMessages.adminScopeForAdmins } });

    const admin = await sut.adminCookie();
    const guarded = { username: 'guarded-admin', password: 'guarded admin secret phrase', role: 'admin' };
    expect(
      (await call('/api/users', { method: 'POST', headers: { cookie: admin }, body: guarded })).status,
    ).toBe(201);
    const { cookie } = await sut.signIn(guarded.username, guarded.password);
    const setup = (await call('/api/account/totp/setup', { method: 'POST', headers: { cookie }, body: {} }))
      .body as unknown as TotpSetup;
    const enabled = await call('/api/account/totp/enable', {
      method: 'POST',
      headers: { cookie },
      body: { code: codeOf(setup.secret) },
    });
    expect(enabled.status).toBe(200);
    expect((enabled.body as unknown as RecoveryCodes).recoveryCodes.length).toBeGreaterThan(0);

    const ask = (extra: Record<string, unknown>) =>
      call('/api/tokens', {
        method: 'POST',
        headers: { cookie },
        body: { name: 'Provisioning', scope: 'admin', expiresAt: inAWeek(), ...extra },
      });
    expect(await ask({})).toMatchObject({
      status: 400,
      body: {
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: 'code', message: apiTokenMessages.codeRequired }],
      },
    });
    const wrong = [...codeOf(setup.secret, 30)].map((d) => String((Number(d) + 5) % 10)).join('');
    expect(await ask({ code: wrong })).toMatchObject({ body: { code: ErrorCode.TOTP_INVALID } });
    expect((await call('/api/tokens', { headers: { cookie } })).body).toEqual([]);

    // The next step's code: the one the enrolment used is spent.
    const made = await ask({ code: codeOf(setup.secret, 30) });
    expect(made).toMatchObject({ status: 201, body: { scope: 'admin', role: 'admin' } });
    const token = (made.body as unknown as ApiTokenCreated).token;
    expect((await call('/api/users', { headers: bearer(token) })).status).toBe(200);
    // Read and write need no code.
    expect(
      (
        await call('/api/tokens', {
          method: 'POST',
          headers: { cookie },
          body: { name: 'Reader', expiresAt: inAWeek() },
        })
      ).status,
    ).toBe(201);
  });

  it('keeps tokens from before scopes working as they did: an admin-role token gets the admin scope, any other write', async () => {
    const dataSource = sut.gateway.app.get(DataSource);
    const runner = dataSource.createQueryRunner();
    const migration = new ApiTokenScopes1764613000000();
    try {
      await migration.down(runner);
      const insert = (role: string, hash: string) =>
        runner.query(
          `INSERT INTO ${table()} (user_id, name, role, token_hash, created_at, expires_at)
             VALUES ($1, 'Old ' || $2, $2, $3, now(), now() + interval '1 day') RETURNING id`,
          [keeperUser.id, role, hash],
        ) as Promise<{ id: string }[]>;
      const [[oldAdmin], [oldUser]] = [
        await insert('admin', 'a'.repeat(64)),
        await insert('user', 'b'.repeat(64)),
      ];
      await migration.up(runner);
      const scopes = await query<{ id: string; scope: string }[]>(
        `SELECT id, scope FROM ${table()} WHERE id = ANY($1)`,
        [[oldAdmin.id, oldUser.id]],
      );
      expect(Object.fromEntries(scopes.map((r) => [r.id, r.scope]))).toEqual({
        [oldAdmin.id]: 'admin',
        [oldUser.id]: 'write',
      });
    } finally {
      await runner.release();
    }
  });

  it('is never accepted on /api/tokens itself, even with a valid token', async () => {
    const { id, token } = await create(keeperCookie, { name: 'Leaky', expiresAt: inAWeek() });
    for (const [method, path, body] of [
      ['GET', '/api/tokens', undefined],
      ['POST', '/api/tokens', { name: 'Another', expiresAt: inAWeek() }],
      ['DELETE', `/api/tokens/${id}`, undefined],
    ] as const)
      expect([method, await call(path, { method, headers: bearer(token), body })]).toEqual([
        method,
        expect.objectContaining({
          status: 403,
          body: { code: ErrorCode.FORBIDDEN, message: apiTokenMessages.notForTokens },
        }),
      ]);
    expect((await call('/api/buildings', { headers: bearer(token) })).status).toBe(200);

    // One no longer valid is told so, as anywhere else, rather than that the route takes none.
    await call(`/api/tokens/${id}`, { method: 'DELETE', headers: { cookie: keeperCookie } });
    expect(await call('/api/tokens', { headers: bearer(token) })).toMatchObject(refused);
  });

  it('stops working at once when revoked, and only its owner or an administrator revokes it', async () => {
    const { id, token } = await create(keeperCookie, { name: 'Temporary', expiresAt: inAWeek() });
    const stranger = await create(await sut.adminCookie(), { name: 'Admin own', expiresAt: inAWeek() });
    expect(
      (await call(`/api/tokens/${stranger.id}`, { method: 'DELETE', headers: { cookie: keeperCookie } }))
        .status,
    ).toBe(404);
    expect((await call('/api/buildings', { headers: bearer(stranger.token) })).status).toBe(200);

    expect(
      (await call(`/api/tokens/${id}`, { method: 'DELETE', headers: { cookie: keeperCookie } })).status,
    ).toBe(204);
    expect(await call('/api/buildings', { headers: bearer(token) })).toMatchObject(refused);
    expect(
      (await call(`/api/tokens/${id}`, { method: 'DELETE', headers: { cookie: keeperCookie } })).status,
    ).toBe(404);
  });

  it('is refused once expired, and an expiry in the past or over a year away is refused at creation', async () => {
    const { id, token } = await create(keeperCookie, { name: 'Short lived', expiresAt: inAWeek() });
    await query(`UPDATE ${table()} SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await call('/api/buildings', { headers: bearer(token) })).toMatchObject(refused);

    for (const [expiresAt, message] of [
      [new Date(Date.now() - 60_000).toISOString(), apiTokenMessages.expiryPast],
      [new Date(Date.now() + 400 * 24 * 3600 * 1000).toISOString(), apiTokenMessages.expiryTooFar],
      ['next tuesday', 'Expiry must be a date and time, such as 2027-01-31T00:00:00Z'],
    ])
      expect(
        await call('/api/tokens', {
          method: 'POST',
          headers: { cookie: keeperCookie },
          body: { name: 'x', expiresAt },
        }),
      ).toMatchObject({ status: 400, body: { code: ErrorCode.VALIDATION_FAILED, message } });
  });

  it('is refused while its user is deactivated, and an unknown or malformed token is refused alike', async () => {
    const someone = { username: 'seasonal', password: 'seasonal secret phrase' };
    const admin = await sut.adminCookie();
    const user = (await call('/api/users', { method: 'POST', headers: { cookie: admin }, body: someone }))
      .body as unknown as User;
    const { token } = await create((await sut.signIn(someone.username, someone.password)).cookie, {
      name: 'Seasonal job',
      expiresAt: inAWeek(),
    });
    expect((await call('/api/buildings', { headers: bearer(token) })).status).toBe(200);
    await call(`/api/users/${user.id}`, {
      method: 'PUT',
      headers: { cookie: admin },
      body: { username: 'seasonal', isActive: 0 },
    });
    expect(await call('/api/buildings', { headers: bearer(token) })).toMatchObject(refused);

    await call(`/api/users/${user.id}`, { method: 'DELETE', headers: { cookie: admin } });
    expect(await call('/api/buildings', { headers: bearer(token) })).toMatchObject(refused);
    expect(await call('/api/buildings', { headers: bearer(`cm_${'A'.repeat(43)}`) })).toMatchObject(refused);
    expect(await call('/api/buildings', { headers: bearer('not a token') })).toMatchObject(refused);
  });
});
