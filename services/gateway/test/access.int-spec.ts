import { type Access, type ApiRouteDef, apiRoutes, ErrorCode } from '@cm/contracts';
import { adminCredentials, fetch, startAuthAndGateway } from './support';

type Role = 'anonymous' | 'user' | 'admin';
const routes = Object.entries(apiRoutes as Record<string, ApiRouteDef>).map(([name, route]) => ({
  name,
  ...route,
}));
const someId = '00000000-0000-4000-8000-000000000000';
const userCredentials = { username: 'plain-user', password: 'plain user secret' };

/** What each role may get from a route of each access level: the guard's whole contract. */
const expected: Record<Role, Record<Access, 'allowed' | 401 | 403>> = {
  anonymous: { public: 'allowed', user: 401, admin: 401 },
  user: { public: 'allowed', user: 'allowed', admin: 403 },
  admin: { public: 'allowed', user: 'allowed', admin: 'allowed' },
};

/**
 * Calls every route of the contract registry, so routes added later are covered without a
 * change here. Every service runs, so that a call the guard lets through is answered at once: it
 * may end in 400 (the empty body) or 404 (the made-up id), never in 401 or 403. (With auth alone,
 * each such call waited out the gateway's tries for a service that might be restarting, 0.8 s.)
 */
describe('access to every /api route', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  const bodies: string[] = [];

  // A fresh session for every call: a sign-out route must not end the session of the next call.
  const sessionOf = async (role: Role): Promise<Record<string, string>> => {
    if (role === 'anonymous') return {};
    const { username, password } = role === 'admin' ? adminCredentials : userCredentials;
    return { cookie: (await sut.signIn(username, password)).cookie };
  };

  const call = async (route: ApiRouteDef, headers: Record<string, string>) => {
    const res = await fetch(`${sut.base}${route.path.replace(/:[A-Za-z]+/g, someId)}`, {
      method: route.method,
      headers: { ...headers, ...(route.body ? { 'content-type': 'application/json' } : {}) },
      body: route.body ? '{}' : undefined,
      redirect: 'manual',
    });
    // The live stream's answer is its headers: its body goes on until the client leaves.
    const streaming = res.headers.get('content-type')?.startsWith('text/event-stream');
    const text = streaming ? (await res.body?.cancel(), '') : await res.text();
    bodies.push(text);
    return {
      status: res.status,
      code: (text.startsWith('{') ? (JSON.parse(text) as { code?: string }) : {}).code,
    };
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { everyService: true });
    const cookie = await sut.adminCookie();
    const res = await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(userCredentials),
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => sut?.close());

  describe.each<Role>(['anonymous', 'user', 'admin'])('as %s', (role) => {
    it.each(routes)('$method $path ($access)', async (route) => {
      const { status, code } = await call(route, await sessionOf(role));
      expect(code).not.toBe(ErrorCode.ROUTE_NOT_FOUND);
      const want = expected[role][route.access];
      if (want === 'allowed') expect([401, 403]).not.toContain(status);
      else
        expect({ status, code }).toEqual({
          status: want,
          code: want === 401 ? ErrorCode.UNAUTHENTICATED : ErrorCode.FORBIDDEN,
        });
    });
  });

  it('requires a session for a handler without a contract entry (the objects under /objects/)', async () => {
    const path = `/objects/uploads/${someId}`;
    const anonymous = await call({ ...apiRoutes.healthz, path, access: 'user' }, {});
    expect(anonymous).toEqual({ status: 401, code: ErrorCode.UNAUTHENTICATED });
    const signedIn = await call({ ...apiRoutes.healthz, path, access: 'user' }, await sessionOf('user'));
    expect([401, 403]).not.toContain(signedIn.status);
  });

  it('lets administrators manage users, and no answer anywhere carries a password or a hash', async () => {
    const cookie = await sut.adminCookie();
    const send = async (path: string, method: string, body?: unknown) => {
      const res = await fetch(`${sut.base}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      bodies.push(text);
      return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
    };
    const created = await send('/api/users', 'POST', {
      username: 'temp',
      password: 'temp secret one',
      email: 'temp@campus.edu',
      firstName: 'Tem',
      lastName: 'Porary',
      role: 'user',
      isActive: 1,
    });
    expect(created.status).toBe(201);
    const id = created.json!.id as string;
    expect(
      (await send(`/api/users/${id}`, 'PUT', { username: 'temp', password: 'temp secret two' })).status,
    ).toBe(200);
    expect((await send('/api/users', 'POST', { username: 'TEMP', password: 'x secret phrase' })).status).toBe(
      409,
    );
    expect((await send('/api/users', 'GET')).status).toBe(200);
    expect((await send(`/api/users/${id}`, 'DELETE')).status).toBe(204);
    expect((await send(`/api/users/${id}`, 'DELETE')).status).toBe(404);
    expect((await send('/api/users/not-an-id', 'DELETE')).status).toBe(400);

    const secrets = [
      adminCredentials.password,
      userCredentials.password,
      'temp secret one',
      'temp secret two',
    ];
    const hasPasswordKey = (value: unknown): boolean =>
      typeof value === 'object' && value !== null
        ? Object.entries(value).some(([k, v]) => /password|hash/i.test(k) || hasPasswordKey(v))
        : false;
    expect(bodies.length).toBeGreaterThan(routes.length * 3);
    for (const body of bodies) {
      expect(body).not.toMatch(/\$argon2/);
      for (const secret of secrets) expect(body).not.toContain(secret);
      const json: unknown = /^[[{]/.test(body) ? JSON.parse(body) : null;
      // The API description names the password field of the sign-in and user forms, as it should.
      if (json && !(json as { openapi?: string }).openapi) expect(hasPasswordKey(json)).toBe(false);
    }
  });
});
