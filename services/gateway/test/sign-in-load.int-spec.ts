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
      { TRUST_PROXY: 'loopback' },
      {
        // A real argon2id cost, one hash at a time and two waiting: a burst overflows at once.
        authEnv: {
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
});
