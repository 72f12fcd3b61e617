import { ErrorCode } from '@cm/contracts';
import { type Clock, LOGIN_CLOCK } from '../src/auth/login-throttle.service';
import { adminCredentials, fetch, startAuthAndGateway, startGateway } from './support';

/** Clients are told apart by X-Forwarded-For, which a gateway behind a trusted proxy believes. */
const limits = {
  TRUST_PROXY: 'loopback',
  LOGIN_MAX_FAILURES: '3',
  LOGIN_MAX_FAILURES_PER_IP: '6',
  LOGIN_THROTTLE_WINDOW_SECONDS: '60',
};

describe('throttling of failed sign-ins', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  const login = (username: string, password: string, ip: string, base = sut.base) =>
    fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ username, password }),
    });
  const statuses = async (attempts: (() => Promise<Response>)[]) => {
    const out: number[] = [];
    for (const attempt of attempts) out.push((await attempt()).status);
    return out;
  };
  const times = (n: number, attempt: () => Promise<Response>) => Array.from({ length: n }, () => attempt);

  beforeAll(async () => {
    sut = await startAuthAndGateway(limits);
    const cookie = await sut.adminCookie();
    for (const username of ['ana', 'ben', 'cleo']) {
      await fetch(`${sut.base}/api/users`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: `${username} secret` }),
      });
    }
  });
  afterAll(() => sut?.close());

  it('refuses a username after 3 failures with 429 and Retry-After, even with the right password', async () => {
    expect(await statuses(times(3, () => login('ana', 'guess', '10.0.0.1')))).toEqual([401, 401, 401]);
    const refused = await login('ana', 'ana secret', '10.0.0.1');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      code: ErrorCode.TOO_MANY_ATTEMPTS,
      message: 'Too many failed sign-ins. Try again in 1 minute.',
    });
    // The limit is the username's: from another address too.
    expect((await login('ana', 'ana secret', '10.0.0.9')).status).toBe(429);
    // Another user from the first address is still welcome.
    expect((await login('ben', 'ben secret', '10.0.0.1')).status).toBe(200);
  });

  it('refuses an address after 6 failures, whatever the username', async () => {
    const guesses = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((u) => () => login(u, 'guess', '10.0.0.2'));
    expect(await statuses(guesses)).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await login('cleo', 'cleo secret', '10.0.0.2')).status).toBe(429);
    expect((await login('cleo', 'cleo secret', '10.0.0.3')).status).toBe(200);
  });

  it('starts a username afresh after a successful sign-in', async () => {
    expect(await statuses(times(2, () => login('ben', 'guess', '10.0.0.4')))).toEqual([401, 401]);
    expect((await login('ben', 'ben secret', '10.0.0.4')).status).toBe(200);
    expect(await statuses(times(2, () => login('ben', 'guess', '10.0.0.4')))).toEqual([401, 401]);
    expect((await login('ben', 'ben secret', '10.0.0.4')).status).toBe(200);
  });

  it('does not count successful sign-ins against a shared address', async () => {
    const signIns = times(10, () => login(adminCredentials.username, adminCredentials.password, '10.0.0.5'));
    expect(new Set(await statuses(signIns))).toEqual(new Set([200]));
  });

  it('lets through no more than the limit when guesses arrive all at once', async () => {
    const burst = await Promise.all(times(8, () => login('cleo', 'guess', '10.0.0.6')).map((a) => a()));
    const counted = burst.map((r) => r.status).sort();
    expect(counted).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('counts across gateway replicas, which share the counters in PostgreSQL', async () => {
    const replica = await startGateway(sut.namespace, limits);
    try {
      expect((await login('dave', 'guess', '10.0.0.7')).status).toBe(401);
      expect((await login('dave', 'guess', '10.0.0.8', replica.base)).status).toBe(401);
      expect((await login('dave', 'guess', '10.0.0.7')).status).toBe(401);
      expect((await login('dave', 'guess', '10.0.0.8', replica.base)).status).toBe(429);
    } finally {
      await replica.close();
    }
  });

  it('lets the username try again once the window has passed', async () => {
    const quick = await startGateway(sut.namespace, limits);
    try {
      const clock = quick.app.get<Clock>(LOGIN_CLOCK);
      const start = Date.now();
      const at = jest.spyOn(clock, 'now').mockReturnValue(start);
      const attempt = () => login('erin', 'guess', '10.0.1.1', quick.base);
      expect(await statuses(times(4, attempt))).toEqual([401, 401, 401, 429]);
      at.mockReturnValue(start + 59_000);
      const refused = await attempt();
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
      at.mockReturnValue(start + 60_000);
      expect((await attempt()).status).toBe(401);
    } finally {
      await quick.close();
    }
  });
});
