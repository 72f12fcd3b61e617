import { randomBytes } from 'node:crypto';
import {
  type AuditPage,
  ErrorCode,
  type RecoveryCodes,
  type TotpChallenge,
  totpMessages,
  type TotpSetup,
  type TotpStatus,
  type User,
} from '@cm/contracts';
import { Secret, TOTP } from 'otpauth';
import { type Clock, LOGIN_CLOCK } from '../src/throttle/login-throttle.service';
import { adminCredentials, fetch, sessionCookieOf, startAuthAndGateway, startGateway } from './support';

/** The code an authenticator app shows `offsetSeconds` from now. */
const codeOf = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });
/** A code no app shows now: the right one's digits shifted. */
const wrongCode = (secret: string) => [...codeOf(secret)].map((d) => String((Number(d) + 5) % 10)).join('');

const gatewayEnv = {
  TRUST_PROXY: 'loopback',
  LOGIN_MAX_FAILURES: '3',
  LOGIN_MAX_FAILURES_PER_IP: '50',
  REQUIRE_ADMIN_TOTP: 'true',
};

describe('two-factor sign-in (TOTP)', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  /** Each test signs in from an address of its own, so that one's failures never hold back another. */
  let client = 0;
  let ip: string;

  const call = (
    path: string,
    {
      cookie,
      body,
      method = body === undefined ? 'GET' : 'POST',
    }: {
      cookie?: string;
      body?: unknown;
      method?: string;
    } = {},
  ) =>
    fetch(`${sut.base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': ip,
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const password = (username: string, pass = `${username} secret phrase`) =>
    call('/api/login', { body: { username, password: pass } });
  const secondStep = (challenge: string, code: string) =>
    call('/api/login/totp', { body: { challenge, code } });
  const challengeOf = async (username: string, pass?: string) => {
    const res = await password(username, pass);
    expect(res.status).toBe(200);
    const body = (await res.json()) as TotpChallenge;
    expect(body.totpRequired).toBe(true);
    expect(sessionCookieOf(res)).toBeNull();
    return body.challenge;
  };
  const adminCookie = async () => {
    const res = await password(adminCredentials.username, adminCredentials.password);
    return sessionCookieOf(res)!;
  };

  /** Signs in without two-factor and turns it on: the secret and the recovery codes. */
  const enrol = async (cookie: string) => {
    const setup = (await (await call('/api/account/totp/setup', { cookie, body: {} })).json()) as TotpSetup;
    const enabled = await call('/api/account/totp/enable', { cookie, body: { code: codeOf(setup.secret) } });
    expect(enabled.status).toBe(200);
    return { secret: setup.secret, ...((await enabled.json()) as RecoveryCodes) };
  };
  const newUser = async (username: string, admin: string) => {
    const res = await call('/api/users', {
      cookie: admin,
      body: { username, password: `${username} secret phrase` },
    });
    expect(res.status).toBe(201);
    const signedIn = await password(username);
    expect(signedIn.status).toBe(200);
    return sessionCookieOf(signedIn)!;
  };

  /**
   * Runs `work` with the throttle's clock held still: no wait that a test counts on runs out
   * while a loaded machine answers.
   */
  const withClockHeld = async (work: () => Promise<void>) => {
    const now = Date.now();
    const clock = jest.spyOn(sut.gateway.app.get<Clock>(LOGIN_CLOCK), 'now').mockImplementation(() => now);
    try {
      await work();
    } finally {
      clock.mockRestore();
    }
  };

  const idOf = async (username: string) => {
    const users = (await (await call('/api/users', { cookie: admin })).json()) as User[];
    return users.find((u) => u.username === username)!.id;
  };

  let admin: string;
  let adminSecret: string;

  beforeAll(async () => {
    sut = await startAuthAndGateway(gatewayEnv, {
      authEnv: { AUTH_TOTP_KEY: randomBytes(32).toString('base64') },
    });
  });
  beforeEach(() => {
    ip = `10.1.0.${++client}`;
  });
  afterAll(() => sut?.close());

  it('lets an administrator without two-factor only enrol when REQUIRE_ADMIN_TOTP is set, then everything', async () => {
    admin = await adminCookie();
    expect(admin).toBeTruthy();
    const refused = await call('/api/users', { cookie: admin });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: ErrorCode.TOTP_ENROLMENT_REQUIRED,
      message: totpMessages.enrolmentRequired,
    });
    expect((await call('/api/auth/user', { cookie: admin })).status).toBe(200);
    const status = (await (await call('/api/account/totp', { cookie: admin })).json()) as TotpStatus;
    expect(status).toEqual({ enabled: false, recoveryCodesLeft: 0, available: true, required: true });

    const setup = (await (
      await call('/api/account/totp/setup', { cookie: admin, body: {} })
    ).json()) as TotpSetup;
    expect(setup.otpauthUrl).toBe(
      `otpauth://totp/Classroom%20Monitor:${adminCredentials.username}?issuer=Classroom%20Monitor&secret=${setup.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    const enabled = await call('/api/account/totp/enable', {
      cookie: admin,
      body: { code: codeOf(setup.secret) },
    });
    const { recoveryCodes } = (await enabled.json()) as RecoveryCodes;
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    adminSecret = setup.secret;

    // The same session goes on, now with every route.
    expect((await call('/api/users', { cookie: admin })).status).toBe(200);
    expect(await (await call('/api/account/totp', { cookie: admin })).json()).toEqual({
      enabled: true,
      recoveryCodesLeft: 10,
      available: true,
      required: false,
    });
  });

  it('asks for the code after the password and starts the session only with a right one', async () => {
    // Without two-factor the password alone signs in.
    const { secret } = await enrol(await newUser('ana', admin));
    const challenge = await challengeOf('ana');

    const wrong = await secondStep(challenge, wrongCode(secret));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ code: ErrorCode.TOTP_INVALID, message: totpMessages.invalidCode });
    expect(sessionCookieOf(wrong)).toBeNull();

    // The next step's code: the one enrolment used is spent.
    const right = await secondStep(challenge, codeOf(secret, 30));
    expect(right.status).toBe(200);
    expect(((await right.json()) as User).username).toBe('ana');
    const cookie = sessionCookieOf(right)!;
    expect(((await (await call('/api/auth/user', { cookie })).json()) as User).totpEnabled).toBe(true);
  });

  it('refuses a code that was already used, also in a new sign-in', async () => {
    const { secret } = await enrol(await newUser('ben', admin));
    const code = codeOf(secret, 30);
    expect((await secondStep(await challengeOf('ben'), code)).status).toBe(200);
    const replay = await secondStep(await challengeOf('ben'), code);
    expect([replay.status, ((await replay.json()) as { code: string }).code]).toEqual([
      401,
      ErrorCode.TOTP_INVALID,
    ]);
    // The enrolment's own code is spent too.
    expect((await secondStep(await challengeOf('ben'), codeOf(secret))).status).toBe(401);
  });

  it('signs in once with each recovery code, written any way', async () => {
    const { recoveryCodes } = await enrol(await newUser('cleo', admin));
    const [first, second] = recoveryCodes;
    expect(first).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    const used = await secondStep(await challengeOf('cleo'), first);
    expect(used.status).toBe(200);
    expect((await secondStep(await challengeOf('cleo'), first)).status).toBe(401);
    const typed = ` ${second.replace('-', ' ').toUpperCase()} `;
    const other = await secondStep(await challengeOf('cleo'), typed);
    expect(other.status).toBe(200);
    const status = (await (
      await call('/api/account/totp', { cookie: sessionCookieOf(other)! })
    ).json()) as TotpStatus;
    expect(status.recoveryCodesLeft).toBe(8);
  });

  it('throttles wrong codes like wrong passwords, with Retry-After', async () => {
    const { secret } = await enrol(await newUser('dora', admin));
    const challenge = await challengeOf('dora');
    // The first wait is a second long: held still, it is still running at the last request.
    await withClockHeld(async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await secondStep(challenge, wrongCode(secret))).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const held = await secondStep(challenge, codeOf(secret, 30));
      expect(held.status).toBe(429);
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
      // The right password does not start the count afresh.
      expect((await password('dora')).status).toBe(429);
    });
  });

  it('holds back codes for an account after 3 wrong ones from any addresses, but not a browser that signed in before', async () => {
    const created = await call('/api/users', {
      cookie: admin,
      body: { username: 'ivy', password: 'ivy secret phrase' },
    });
    expect(created.status).toBe(201);
    const first = await password('ivy');
    const device = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('cm.device='))!
      .split(';')[0];
    const { secret } = await enrol(sessionCookieOf(first)!);
    await withClockHeld(async () => {
      const statuses: number[] = [];
      for (const address of ['10.2.0.1', '10.2.0.2', '10.2.0.3', '10.2.0.4']) {
        ip = address;
        statuses.push((await secondStep(await challengeOf('ivy'), wrongCode(secret))).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      ip = '10.2.0.5';
      const held = await secondStep(await challengeOf('ivy'), codeOf(secret, 30));
      expect([held.status, held.headers.get('retry-after')]).toEqual([429, '1']);

      const known = await call('/api/login', {
        cookie: device,
        body: { username: 'ivy', password: 'ivy secret phrase' },
      });
      const { challenge } = (await known.json()) as TotpChallenge;
      const signedIn = await call('/api/login/totp', {
        cookie: device,
        body: { challenge, code: codeOf(secret, 30) },
      });
      expect(signedIn.status).toBe(200);
    });
  });

  it('signs in once with a challenge, which every replica refuses from then on', async () => {
    const { secret, recoveryCodes } = await enrol(await newUser('jan', admin));
    const challenge = await challengeOf('jan');
    expect((await secondStep(challenge, codeOf(secret, 30))).status).toBe(200);

    const replica = await startGateway(sut.namespace, gatewayEnv);
    try {
      const there = await fetch(`${replica.base}/api/login/totp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ challenge, code: recoveryCodes[0] }),
      });
      expect(await there.json()).toEqual({
        code: ErrorCode.TOTP_CHALLENGE_EXPIRED,
        message: totpMessages.challengeExpired,
      });
      expect(there.status).toBe(401);
    } finally {
      await replica.close();
    }
    const again = await secondStep(challenge, recoveryCodes[1]);
    expect([again.status, ((await again.json()) as { code: string }).code]).toEqual([
      401,
      ErrorCode.TOTP_CHALLENGE_EXPIRED,
    ]);
    // The codes tried with it were not spent: a new sign-in takes them.
    expect((await secondStep(await challengeOf('jan'), recoveryCodes[0])).status).toBe(200);
  });

  it('refuses a forged challenge and one older than five minutes', async () => {
    const { secret } = await enrol(await newUser('erin', admin));
    const challenge = await challengeOf('erin');
    const [payload, signature] = challenge.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { e: number };
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3600_000 })).toString('base64url');
    const forged = await secondStep(`${longer}.${signature}`, codeOf(secret, 30));
    expect([forged.status, ((await forged.json()) as { code: string }).code]).toEqual([
      401,
      ErrorCode.TOTP_CHALLENGE_EXPIRED,
    ]);

    const clock = jest.spyOn(sut.gateway.app.get<Clock>(LOGIN_CLOCK), 'now');
    clock.mockImplementation(() => Date.now() + 5 * 60_000 + 1000);
    try {
      const late = await secondStep(challenge, codeOf(secret, 30));
      expect(await late.json()).toEqual({
        code: ErrorCode.TOTP_CHALLENGE_EXPIRED,
        message: totpMessages.challengeExpired,
      });
    } finally {
      clock.mockRestore();
    }
  });

  it('turns two-factor off with a code or the password, and makes new recovery codes', async () => {
    const { secret, recoveryCodes } = await enrol(await newUser('fay', admin));
    const cookie = sessionCookieOf(await secondStep(await challengeOf('fay'), codeOf(secret, 30)))!;

    const badPassword = await call('/api/account/totp/recovery-codes', {
      cookie,
      body: { password: 'guess' },
    });
    expect(await badPassword.json()).toEqual({
      code: ErrorCode.TOTP_INVALID,
      message: totpMessages.wrongPassword,
    });
    const renewed = await call('/api/account/totp/recovery-codes', {
      cookie,
      body: { password: 'fay secret phrase' },
    });
    const fresh = ((await renewed.json()) as RecoveryCodes).recoveryCodes;
    expect(fresh).toHaveLength(10);
    // The old ones are gone.
    expect((await secondStep(await challengeOf('fay'), recoveryCodes[0])).status).toBe(401);

    const off = await call('/api/account/totp/disable', { cookie, body: { code: fresh[0] } });
    expect(await off.json()).toEqual({
      enabled: false,
      recoveryCodesLeft: 0,
      available: true,
      required: false,
    });
    const plain = await password('fay');
    expect(((await plain.json()) as User).totpEnabled).toBe(false);
    expect(sessionCookieOf(plain)).not.toBeNull();
  });

  it("lets an administrator turn off a user's two-factor sign-in, and nobody else", async () => {
    const gil = await newUser('gil', admin);
    await enrol(gil);
    const byUser = await call(`/api/users/${await idOf('gil')}/totp`, { cookie: gil, method: 'DELETE' });
    expect(byUser.status).toBe(403);
    expect((await password('gil')).status).toBe(200); // still asks for a code: a challenge, no session
    expect(sessionCookieOf(await password('gil'))).toBeNull();

    const reset = await call(`/api/users/${await idOf('gil')}/totp`, { cookie: admin, method: 'DELETE' });
    expect(reset.status).toBe(204);
    const plain = await password('gil');
    expect(((await plain.json()) as User).totpEnabled).toBe(false);
    expect(sessionCookieOf(plain)).not.toBeNull();
  });

  it('writes two-factor turned on, renewed, turned off and reset to the audit log, never a code', async () => {
    const hal = await newUser('hal', admin);
    const { secret, recoveryCodes } = await enrol(hal);
    const cookie = sessionCookieOf(await secondStep(await challengeOf('hal'), codeOf(secret, 30)))!;
    const renewed = await call('/api/account/totp/recovery-codes', {
      cookie,
      body: { password: 'hal secret phrase' },
    });
    const fresh = ((await renewed.json()) as RecoveryCodes).recoveryCodes;
    await call('/api/account/totp/disable', { cookie, body: { code: fresh[0] } });
    await enrol(cookie);
    const id = await idOf('hal');
    expect((await call(`/api/users/${id}/totp`, { cookie: admin, method: 'DELETE' })).status).toBe(204);

    const res = await call(`/api/audit?entityType=user&entityId=${id}`, { cookie: admin });
    const { items } = (await res.json()) as AuditPage;
    const changes = items.filter((e) => e.action === 'update').reverse();
    const replaced = { recoveryCodes: '[redacted]' };
    const turnedOn = expect.objectContaining({
      actorName: 'hal',
      before: { totpEnabled: false, ...replaced },
      after: { totpEnabled: true, ...replaced },
    });
    expect(changes).toEqual([
      turnedOn,
      expect.objectContaining({ actorName: 'hal', before: replaced, after: replaced }),
      expect.objectContaining({
        actorName: 'hal',
        before: { totpEnabled: true },
        after: { totpEnabled: false },
      }),
      turnedOn,
      expect.objectContaining({
        actorName: adminCredentials.username,
        before: { totpEnabled: true },
        after: { totpEnabled: false },
      }),
    ]);
    const written = JSON.stringify(items);
    for (const code of [...recoveryCodes, ...fresh, secret, 'hal secret phrase'])
      expect(written).not.toContain(code);
  });

  it('asks the administrator for a code at the next sign-in too', async () => {
    const challenge = await challengeOf(adminCredentials.username, adminCredentials.password);
    const res = await secondStep(challenge, codeOf(adminSecret, 30));
    expect(res.status).toBe(200);
    expect((await call('/api/users', { cookie: sessionCookieOf(res)! })).status).toBe(200);
  });
});
