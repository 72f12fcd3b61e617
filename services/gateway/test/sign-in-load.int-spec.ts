import { ErrorCode } from '@cm/contracts';
import { fetch, startAuthAndGateway } from './support';

const login = (base: string, username: string, password: string, ip: string) =>
  fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ username, password }),
  });

describe('sign-in while password hashing is saturated', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  beforeAll(async () => {
    sut = await startAuthAndGateway(
      // Replies may take long on a loaded machine: what counts is which are refused, not when. The
      // longest deadlines there are: the gateway's (a 504) and auth's wait for a free check (half
      // of it, a 503) then lie far beyond the few hashes a sign-in here waits for.
      { TRUST_PROXY: 'loopback', LOGIN_MAX_CONCURRENT_PER_IP: '2', NATS_REQUEST_TIMEOUT_MS: '120000' },
      {
        // A real argon2id cost, one hash at a time and two waiting: a burst overflows at once.
        authEnv: {
          NATS_REQUEST_TIMEOUT_MS: '120000',
          PASSWORD_HASH_MEMORY_KIB: '65536',
          PASSWORD_HASH_PASSES: '3',
          PASSWORD_HASH_PARALLELISM: '1',
          AUTH_MAX_CONCURRENT_HASHES: '1',
          AUTH_HASH_QUEUE_LENGTH: '2',
        },
      },
    );
    const cookie = await sut.adminCookie();
    await fetch(`${sut.base}/api/users`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'ivy', password: 'ivy secret phrase' }),
    });
  });
  afterAll(() => sut?.close());

  it('answers a burst of sign-ins with 200, 401, 429 or a quick 503 with Retry-After, never 504', async () => {
    const burst = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        login(sut.base, 'ivy', i % 3 ? 'ivy secret phrase' : 'guess', `10.1.0.${i + 1}`),
      ),
    );
    const answers = await Promise.all(
      burst.map(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        code: res.ok ? null : ((await res.json()) as { code: string }).code,
      })),
    );
    for (const answer of answers) expect([200, 401, 429, 503]).toContain(answer.status);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy)
      expect(answer).toEqual({ status: 503, retryAfter: '1', code: ErrorCode.PASSWORD_CHECKS_BUSY });
    expect(answers.some((a) => a.status === 200)).toBe(true);
    // Nothing was left holding a slot: one at a time is welcome again.
    expect((await login(sut.base, 'ivy', 'ivy secret phrase', '10.1.1.1')).status).toBe(200);
  });

  it('signs in a user elsewhere every time while one address floods sign-in with wrong passwords', async () => {
    // 30 sign-ins from one address at all times: each sends the next as soon as it is answered.
    let flooding = true;
    const flood: { status: number; body: unknown }[] = [];
    let inFullSwing = () => {};
    const started = new Promise<void>((resolve) => (inFullSwing = resolve));
    const flooder = async (n: number) => {
      for (let i = 0; flooding; i++) {
        const res = await login(sut.base, `nobody${n}-${i}`, 'guess', '10.2.0.66');
        flood.push({ status: res.status, body: await res.json() });
        if (flood.length >= 30) inFullSwing();
      }
    };
    const flooders = Array.from({ length: 30 }, (_, n) => flooder(n));
    const user: number[] = [];
    try {
      await started;
      for (let i = 0; i < 4; i++)
        user.push((await login(sut.base, 'ivy', 'ivy secret phrase', '10.2.1.1')).status);
    } finally {
      flooding = false;
      await Promise.all(flooders);
    }
    expect(user).toEqual([200, 200, 200, 200]);
    // The flood got wrong-password answers or was turned away by the gateway; it never filled auth.
    // A machine loaded beside it may also leave the gateway's database pool without a connection in
    // time for a flooding sign-in: that is a 503 (try again), never a 500.
    const statuses = new Set(flood.map((a) => a.status));
    expect([...statuses].filter((status) => status !== 503).sort()).toEqual([401, 429]);
    expect(flood).toContainEqual({
      status: 429,
      body: {
        code: ErrorCode.TOO_MANY_ATTEMPTS,
        message: 'Too many sign-ins at once from your network address. Try again in 1 second.',
      },
    });
    // Room for the load: what counts is which sign-ins pass and which are refused, not how fast.
    // On a loaded machine the flood, this process's own, takes its turns beside the user's.
  });

  it('signs in a browser that signed in before every time while sign-ins from many addresses fill auth', async () => {
    const signedIn = await login(sut.base, 'ivy', 'ivy secret phrase', '10.4.1.1');
    const device = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('cm.device='))!
      .split(';')[0];
    // 30 sign-ins at all times, each from an address of its own, as from a botnet.
    let flooding = true;
    const flood: number[] = [];
    let inFullSwing = () => {};
    const started = new Promise<void>((resolve) => (inFullSwing = resolve));
    const flooder = async (n: number) => {
      for (let i = 0; flooding; i++) {
        const address = `10.5.${n}.${i % 250}`;
        const res = await login(sut.base, `stranger${n}-${i}`, 'guess', address);
        await res.arrayBuffer();
        flood.push(res.status);
        if (flood.length >= 30) inFullSwing();
      }
    };
    const flooders = Array.from({ length: 30 }, (_, n) => flooder(n));
    const user: number[] = [];
    try {
      await started;
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`${sut.base}/api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.4.1.1', cookie: device },
          body: JSON.stringify({ username: 'ivy', password: 'ivy secret phrase' }),
        });
        user.push(res.status);
      }
    } finally {
      flooding = false;
      await Promise.all(flooders);
    }
    expect(user).toEqual([200, 200, 200, 200]);
    // The flood did fill auth: strangers were turned away busy meanwhile.
    expect(flood).toContain(503);
    // Room for the load, as above.
  });
});
