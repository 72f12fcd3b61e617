import { authMessages, ErrorCode, type UserListItem } from '@cm/contracts';
import { AppError } from '@cm/platform';
import { type Clock, LOGIN_CLOCK, LoginThrottle } from '../src/throttle/login-throttle.service';
import { adminCredentials, fetch, type Gateway, startAuthAndGateway, startGateway } from './support';

/** Clients are told apart by X-Forwarded-For, which a gateway behind a trusted proxy believes. */
const limits = {
  TRUST_PROXY: 'loopback',
  LOGIN_MAX_FAILURES: '3',
  LOGIN_MAX_FAILURES_PER_IP: '6',
  LOGIN_THROTTLE_WINDOW_SECONDS: '60',
  LOGIN_MAX_DELAY_SECONDS: '8',
};

/**
 * Stops a gateway's throttling clock at a moment the test moves by hand: no delay runs out
 * while a slow machine answers, and none needs to be waited for.
 */
function stopClock(gateway: Gateway, start = Date.now()) {
  const now = jest.spyOn(gateway.app.get<Clock>(LOGIN_CLOCK), 'now');
  let at = start;
  now.mockImplementation(() => at);
  return {
    now: () => at,
    advance: (seconds: number) => (at += seconds * 1000),
    restore: () => now.mockRestore(),
  };
}

const login = (
  base: string,
  username: string,
  password: string,
  ip: string,
  headers: Record<string, string> = {},
) =>
  fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
    body: JSON.stringify({ username, password }),
  });

const statuses = async (attempts: (() => Promise<Response>)[]) => {
  const out: number[] = [];
  for (const attempt of attempts) out.push((await attempt()).status);
  return out;
};
const times = (n: number, attempt: () => Promise<Response>) => Array.from({ length: n }, () => attempt);

/** The device cookie a successful sign-in set, as a Cookie header. */
const deviceCookieOf = (res: Response) => {
  const set = res.headers.getSetCookie().find((c) => c.startsWith('cm.device='));
  return set?.split(';')[0];
};

describe('throttling of failed sign-ins', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let clock: ReturnType<typeof stopClock>;
  const ids: Record<string, string> = {};

  const attempt = (username: string, password: string, ip: string, headers?: Record<string, string>) =>
    login(sut.base, username, password, ip, headers);
  const asAdmin = async (method: string, path: string, body?: unknown) =>
    fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie: await sut.adminCookie(), 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const lockedUsers = async () => {
    const users = (await (await asAdmin('GET', '/api/users')).json()) as UserListItem[];
    return users.filter((u) => u.signInLocked).map((u) => u.username);
  };

  beforeAll(async () => {
    sut = await startAuthAndGateway(limits);
    for (const username of ['ana', 'ben', 'cleo', 'dora', 'erin', 'fay', 'gil', 'hal']) {
      const res = await asAdmin('POST', '/api/users', { username, password: `${username} secret phrase` });
      ids[username] = ((await res.json()) as { id: string }).id;
    }
  });
  beforeEach(() => {
    clock = stopClock(sut.gateway);
  });
  afterEach(() => clock.restore());
  afterAll(() => sut?.close());

  it("does not let a guesser's failures from another client lock out the victim, administrators included", async () => {
    for (const victim of ['ana', adminCredentials.username]) {
      const guesses = await statuses(times(5, () => attempt(victim, 'guess', '10.0.0.66')));
      expect(guesses).toEqual([401, 401, 401, 429, 429]);
    }
    expect((await attempt('ana', 'ana secret phrase', '10.0.0.1')).status).toBe(200);
    expect((await attempt(adminCredentials.username, adminCredentials.password, '10.0.0.1')).status).toBe(
      200,
    );
    // The guesser's own client stays held back, even with the right password.
    expect((await attempt('ana', 'ana secret phrase', '10.0.0.66')).status).toBe(429);
  });

  it('makes each further failure wait longer, 1, 2, 4 … seconds up to the cap, with Retry-After', async () => {
    const guess = () => attempt('erin', 'guess', '10.0.1.1');
    expect(await statuses(times(3, guess))).toEqual([401, 401, 401]);
    for (const wait of [1, 2, 4, 8, 8]) {
      const refused = await attempt('erin', 'erin secret phrase', '10.0.1.1');
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, String(wait)]);
      expect(await refused.json()).toEqual({
        code: ErrorCode.TOO_MANY_ATTEMPTS,
        message: `Too many failed sign-ins. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
      });
      clock.advance(wait - 1);
      expect((await guess()).status).toBe(429);
      clock.advance(1);
      expect((await guess()).status).toBe(401);
    }
    clock.advance(8);
    expect((await attempt('erin', 'erin secret phrase', '10.0.1.1')).status).toBe(200);
  });

  it('starts the pair afresh after a successful sign-in', async () => {
    const guess = () => attempt('cleo', 'guess', '10.0.0.4');
    expect(await statuses(times(2, guess))).toEqual([401, 401]);
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.0.4')).status).toBe(200);
    expect(await statuses(times(2, guess))).toEqual([401, 401]);
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.0.4')).status).toBe(200);
  });

  it('forgets the failures once a window has passed since the wait ended', async () => {
    const guess = () => attempt('dora', 'guess', '10.0.1.2');
    expect(await statuses(times(4, guess))).toEqual([401, 401, 401, 429]);
    // The 1 s wait, then 59 s: not yet a window.
    clock.advance(1 + 59);
    expect((await guess()).status).toBe(401);
    expect((await guess()).headers.get('retry-after')).toBe('2');
    clock.advance(2 + 60);
    expect(await statuses(times(3, guess))).toEqual([401, 401, 401]);
    expect((await guess()).headers.get('retry-after')).toBe('1');
  });

  it('holds back a client after 6 failures, whatever the usernames, and no other client', async () => {
    const guesses = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'].map((u) => () => attempt(u, 'guess', '10.0.0.2'));
    expect(await statuses(guesses)).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.0.2')).status).toBe(429);
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.0.3')).status).toBe(200);
  });

  it('does not count successful sign-ins against a shared address', async () => {
    const signIns = times(10, () =>
      attempt(adminCredentials.username, adminCredentials.password, '10.0.0.5'),
    );
    expect(new Set(await statuses(signIns))).toEqual(new Set([200]));
  });

  it('lets through no more than the limit when guesses arrive all at once', async () => {
    const burst = await Promise.all(times(8, () => attempt('cleo', 'guess', '10.0.0.6')).map((a) => a()));
    expect(burst.map((r) => r.status).sort()).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('keeps a browser that signed in before working while others guess from its address', async () => {
    // A proxy that is not trusted makes every client one address: here 10.0.3.1.
    const known = await attempt('ben', 'ben secret phrase', '10.0.3.1');
    const device = deviceCookieOf(known)!;
    // Opaque: it does not say whose it is.
    expect(device).not.toContain(Buffer.from('ben').toString('base64url'));
    const attributes = known.headers
      .getSetCookie()
      .find((c) => c.startsWith('cm.device='))!
      .split('; ')
      .slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/api/login', 'HttpOnly', 'SameSite=Strict']));
    const guesses = ['ben', 'ben', 'ben', 'x1', 'x2', 'x3', 'x4'].map(
      (u) => () => attempt(u, 'guess', '10.0.3.1'),
    );
    expect(await statuses(guesses)).toEqual([401, 401, 401, 401, 401, 401, 429]);
    // Without the cookie, ben is held back like anyone at that address.
    expect((await attempt('ben', 'ben secret phrase', '10.0.3.1')).status).toBe(429);

    const again = await attempt('ben', 'ben secret phrase', '10.0.3.1', { cookie: device });
    expect(again.status).toBe(200);
    const renewed = deviceCookieOf(again)!;
    expect(renewed).not.toBe(device);
    // The cookie names ben: it is worth nothing for another username, nor once tampered with.
    expect((await attempt('hal', 'hal secret phrase', '10.0.3.1', { cookie: renewed })).status).toBe(429);
    const tampered = renewed.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await attempt('ben', 'ben secret phrase', '10.0.3.1', { cookie: tampered })).status).toBe(429);
  });

  it('holds back a device cookie that keeps failing, by its own failures only', async () => {
    const device = deviceCookieOf(await attempt('hal', 'hal secret phrase', '10.0.4.1'))!;
    const guess = () => attempt('hal', 'guess', '10.0.4.1', { cookie: device });
    expect(await statuses(times(4, guess))).toEqual([401, 401, 401, 429]);
    expect((await attempt('hal', 'hal secret phrase', '10.0.4.1', { cookie: device })).status).toBe(429);
    // Its failures were the device's: the same address without it, and hal elsewhere, are not held back.
    expect((await attempt('hal', 'hal secret phrase', '10.0.4.1')).status).toBe(200);
    expect((await attempt('hal', 'hal secret phrase', '10.0.4.2')).status).toBe(200);
  });

  it("counts a sign-in auth was too busy to check against the client's address, not the user", async () => {
    const throttle = sut.gateway.app.get(LoginThrottle);
    const busy = () => Promise.reject(new AppError(ErrorCode.PASSWORD_CHECKS_BUSY, 'busy'));
    const answers = [];
    for (let i = 0; i < 6; i++)
      answers.push(
        await throttle
          .attempt({ username: 'ivan', client: '10.0.6.1', device: null }, busy)
          .catch((e: AppError) => e.code),
      );
    expect(answers).toEqual(Array(6).fill(ErrorCode.PASSWORD_CHECKS_BUSY));
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.6.1')).status).toBe(429);
    expect(await lockedUsers()).not.toContain('ivan');
    expect((await attempt('cleo', 'cleo secret phrase', '10.0.6.2')).status).toBe(200);
  });

  it('lets one address have 4 sign-ins in flight at once, and a browser that signed in before one more', async () => {
    const device = deviceCookieOf(await attempt('ben', 'ben secret phrase', '10.0.7.1'))!;
    const throttle = sut.gateway.app.get(LoginThrottle);
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const admitted: Promise<void>[] = [];
    const inFlight = ['x1', 'x2', 'x3', 'x4'].map((username) => {
      let started = () => {};
      admitted.push(new Promise<void>((resolve) => (started = resolve)));
      return throttle.attempt({ username, client: '10.0.7.1', device: null }, () => {
        started();
        return answered;
      });
    });
    try {
      await Promise.all(admitted);
      const refused = await attempt('ben', 'ben secret phrase', '10.0.7.1');
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
      expect(await refused.json()).toEqual({
        code: ErrorCode.TOO_MANY_ATTEMPTS,
        message: 'Too many sign-ins at once from your network address. Try again in 1 second.',
      });
      expect((await attempt('ben', 'ben secret phrase', '10.0.7.1', { cookie: device })).status).toBe(200);
      expect((await attempt('ben', 'ben secret phrase', '10.0.7.2')).status).toBe(200);
    } finally {
      answer();
      await Promise.all(inFlight);
    }
    expect((await attempt('ben', 'ben secret phrase', '10.0.7.1')).status).toBe(200);
  });

  it('lets an administrator see and clear a sign-in lock, and not a plain user', async () => {
    const guess = () => attempt('fay', 'guess', '10.0.2.1');
    expect(await statuses(times(4, guess))).toEqual([401, 401, 401, 429]);
    expect(await lockedUsers()).toContain('fay');
    expect(await lockedUsers()).not.toContain('gil');

    const plain = await sut.signIn('gil', 'gil secret phrase');
    const byUser = await fetch(`${sut.base}/api/users/${ids.fay}/sign-in-lock`, {
      method: 'DELETE',
      headers: { cookie: plain.cookie },
    });
    expect(byUser.status).toBe(403);
    expect((await attempt('fay', 'fay secret phrase', '10.0.2.1')).status).toBe(429);

    expect((await asAdmin('DELETE', `/api/users/${ids.fay}/sign-in-lock`)).status).toBe(204);
    expect(await lockedUsers()).not.toContain('fay');
    expect((await attempt('fay', 'fay secret phrase', '10.0.2.1')).status).toBe(200);

    const unknown = await asAdmin('DELETE', '/api/users/00000000-0000-4000-8000-000000000000/sign-in-lock');
    expect(unknown.status).toBe(404);
  });

  it('answers a deactivated account with the right password exactly as a wrong password, and counts it', async () => {
    const answer = async (res: Response) => ({
      status: res.status,
      body: await res.text(),
      cookies: res.headers.getSetCookie(),
    });
    const active = await answer(await attempt('gil', 'guess', '10.0.5.1'));
    expect(active).toEqual({
      status: 401,
      body: JSON.stringify({ code: ErrorCode.INVALID_CREDENTIALS, message: authMessages.invalidCredentials }),
      cookies: [],
    });
    expect((await asAdmin('PUT', `/api/users/${ids.gil}`, { username: 'gil', isActive: 0 })).status).toBe(
      200,
    );
    const wrong = await answer(await attempt('gil', 'guess', '10.0.5.2'));
    const right = await answer(await attempt('gil', 'gil secret phrase', '10.0.5.2'));
    expect(right).toEqual(active);
    expect(wrong).toEqual(active);
    // Two failures so far at 10.0.5.2: one more, then the wait, whichever password is sent.
    expect((await attempt('gil', 'gil secret phrase', '10.0.5.2')).status).toBe(401);
    expect((await attempt('gil', 'gil secret phrase', '10.0.5.2')).status).toBe(429);
  });

  it('counts across gateway replicas, which share the counters in PostgreSQL', async () => {
    const replica = await startGateway(sut.namespace, limits);
    const replicaClock = stopClock(replica, clock.now());
    try {
      const onReplica = (ip: string) => login(replica.base, 'dave', 'guess', ip);
      expect((await attempt('dave', 'guess', '10.0.0.7')).status).toBe(401);
      expect((await onReplica('10.0.0.7')).status).toBe(401);
      expect((await attempt('dave', 'guess', '10.0.0.7')).status).toBe(401);
      expect((await onReplica('10.0.0.7')).status).toBe(429);
    } finally {
      replicaClock.restore();
      await replica.close();
    }
  });
});
