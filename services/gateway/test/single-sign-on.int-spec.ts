import { type AuditPage, authMessages, ErrorCode, SIGN_IN_ERROR_PARAM, type User } from '@cm/contracts';
import { eventually, TestOpenIdProvider } from '@cm/platform/testing';
import { fetch, startAuthAndGateway } from './support';

const CLIENT = { clientId: 'classroom-monitor', clientSecret: 'provider client secret phrase' };

/**
 * A browser as far as single sign-on needs one: it follows redirects itself, keeps cookies by
 * origin (the provider is at localhost, the app at 127.0.0.1), and stops once it is back on a page
 * of the app. `rewrite` changes the address of the provider's authorization request on its way,
 * as someone between the two would.
 */
class Browser {
  private readonly jar = new Map<string, Map<string, string>>();

  constructor(private readonly app: string) {}

  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }

  /** The app's session cookie, as a Cookie header. */
  get session(): string {
    return `cm.sid=${this.cookie(this.app, 'cm.sid') ?? ''}`;
  }

  async signOn(
    provider: TestOpenIdProvider,
    login: string,
    { returnTo = '/rooms/204', rewrite = (url: URL) => url } = {},
  ): Promise<URL> {
    let url = new URL(`${this.app}/api/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`);
    for (let hops = 0; hops < 15; hops++) {
      if (url.origin === this.app && !url.pathname.startsWith('/api/')) return url;
      if (url.origin === provider.issuer && url.pathname === '/auth') url = rewrite(url);
      const form = /^\/interaction\/[^/]+$/.test(url.pathname);
      const res = await this.request(form ? new URL(`${url.href}/login`) : url, form ? { login } : undefined);
      const location = res.headers.get('location');
      if (!location) throw new Error(`${url.href} answered ${res.status}: ${await res.text()}`);
      url = new URL(location, url);
    }
    throw new Error('Too many redirects');
  }

  /** Opens a URL as this browser, without following where it redirects. */
  async request(url: URL, form?: Record<string, string>): Promise<Response> {
    const cookies = [...(this.jar.get(url.origin) ?? new Map<string, string>())]
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        ...(cookies ? { cookie: cookies } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const jar = this.jar.get(url.origin) ?? new Map<string, string>();
    this.jar.set(url.origin, jar);
    for (const set of res.headers.getSetCookie()) {
      const [pair, ...attributes] = set.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      const gone = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (gone || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  }
}

const refusalOf = (landed: URL) => landed.searchParams.get(SIGN_IN_ERROR_PARAM);

describe('single sign-on (OpenID Connect)', () => {
  let provider: TestOpenIdProvider;
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  const call = (path: string, cookie: string, init: RequestInit = {}) =>
    fetch(`${sut.base}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', cookie, ...init.headers },
    });
  const me = async (browser: Browser) => {
    const res = await call('/api/auth/user', browser.session);
    return res.status === 200 ? ((await res.json()) as User) : res.status;
  };

  beforeAll(async () => {
    provider = await TestOpenIdProvider.listen();
    sut = await startAuthAndGateway(
      {},
      {
        authEnv: {
          OIDC_ISSUER_URL: provider.issuer,
          OIDC_CLIENT_ID: CLIENT.clientId,
          OIDC_CLIENT_SECRET: CLIENT.clientSecret,
          OIDC_DISPLAY_NAME: 'Campus Login',
          OIDC_ADMIN_GROUPS: 'av-admins, it-admins',
          OIDC_SCOPES: 'openid profile email groups',
        },
      },
    );
    await provider.serve({ ...CLIENT, redirectUris: [`${sut.base}/api/auth/oidc/callback`] });
  });

  afterAll(async () => {
    await sut?.close();
    await provider?.close();
  });

  it('tells the sign-in screen to offer the provider by its display name', async () => {
    const res = await fetch(`${sut.base}/api/auth/options`);
    expect(await res.json()).toEqual({ singleSignOn: { displayName: 'Campus Login' } });
  });

  it('signs a person in as a user, created at the first sign-in as external, and ends where they began', async () => {
    provider.account('grace', { email: 'Grace@Campus.edu', given_name: 'Grace', family_name: 'Hopper' });
    const browser = new Browser(sut.base);

    const landed = await browser.signOn(provider, 'grace', { returnTo: '/rooms/204?tab=equipment' });

    expect(landed.pathname + landed.search).toBe('/rooms/204?tab=equipment');
    const user = (await me(browser)) as User;
    expect(user).toMatchObject({
      username: 'grace',
      email: 'grace@campus.edu',
      firstName: 'Grace',
      lastName: 'Hopper',
      role: 'user',
      isActive: 1,
      external: true,
      totpEnabled: false,
    });
    expect((await call('/api/users', browser.session)).status).toBe(403);

    // The second sign-in finds the same account, brought up to date.
    provider.account('grace', {
      email: 'grace.hopper@campus.edu',
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    const again = new Browser(sut.base);
    await again.signOn(provider, 'grace');
    expect(await me(again)).toMatchObject({ id: user.id, email: 'grace.hopper@campus.edu' });
  });

  it('makes an administrator of a member of OIDC_ADMIN_GROUPS, and takes it back when they leave the group', async () => {
    provider.account('ada', { groups: ['staff', 'it-admins'] }, 'sub-ada-1');
    const admin = new Browser(sut.base);
    await admin.signOn(provider, 'ada');
    expect(await me(admin)).toMatchObject({ username: 'ada', role: 'admin', external: true });
    expect((await call('/api/users', admin.session)).status).toBe(200);

    provider.account('ada', { groups: ['staff'] }, 'sub-ada-1');
    const later = new Browser(sut.base);
    await later.signOn(provider, 'ada');
    const ada = (await me(later)) as User;
    expect(ada).toMatchObject({ username: 'ada', role: 'user' });
    // Every session of theirs has the rights of now.
    expect((await call('/api/users', admin.session)).status).toBe(403);

    // The provider's groups made and unmade an administrator: both are in the audit log.
    const entries = await eventually(
      async () => {
        const res = await call(`/api/audit?entityType=user&entityId=${ada.id}`, await sut.adminCookie());
        const { items } = (await res.json()) as AuditPage;
        expect(items).toHaveLength(2);
        return items;
      },
      60_000,
      200,
    );
    expect(entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ['update', { role: 'admin', isActive: 1 }, { username: 'ada', role: 'user', isActive: 1 }],
      ['create', null, { username: 'ada', role: 'admin', isActive: 1 }],
    ]);
  });

  it.each([
    ['an answer whose state is not the one this browser sent', 'state'],
    ['an ID token whose nonce is not the one this sign-in sent', 'nonce'],
  ])('refuses %s', async (_case, parameter) => {
    provider.account('mallory', {});
    const browser = new Browser(sut.base);
    const landed = await browser.signOn(provider, 'mallory', {
      rewrite: (url) => {
        url.searchParams.set(parameter, `${parameter}-of-another-sign-in`);
        return url;
      },
    });
    expect(refusalOf(landed)).toBe(ErrorCode.SSO_FAILED);
    expect(landed.pathname).toBe('/rooms/204');
    expect(browser.cookie(sut.base, 'cm.sid')).toBeUndefined();
    expect(await me(browser)).toBe(401);
  });

  it('refuses an answer brought to another browser, and a code used twice', async () => {
    provider.account('eve', {});
    // A sign-on stopped at the callback, to hand it to someone else.
    const victim = new Browser(sut.base);
    const start = await victim.request(new URL(`${sut.base}/api/auth/oidc/start`));
    let url = new URL(start.headers.get('location')!);
    while (url.origin !== sut.base) {
      const form = /^\/interaction\/[^/]+$/.test(url.pathname);
      const res = await victim.request(
        form ? new URL(`${url.href}/login`) : url,
        form ? { login: 'eve' } : undefined,
      );
      url = new URL(res.headers.get('location')!, url);
    }
    const callback = url;

    const stranger = new Browser(sut.base);
    const elsewhere = await stranger.request(callback);
    expect(refusalOf(new URL(elsewhere.headers.get('location')!, sut.base))).toBe(ErrorCode.SSO_EXPIRED);
    expect(stranger.cookie(sut.base, 'cm.sid')).toBeUndefined();

    const first = await victim.request(callback);
    expect(first.headers.get('location')).toBe('/buildings');
    const second = await victim.request(callback);
    expect(refusalOf(new URL(second.headers.get('location')!, sut.base))).toBe(ErrorCode.SSO_EXPIRED);
  });

  it('locks out an external user deactivated in User Management, at once and at the next sign-in', async () => {
    provider.account('linus', {});
    const browser = new Browser(sut.base);
    await browser.signOn(provider, 'linus');
    const { id } = (await me(browser)) as User;

    const deactivate = await call(`/api/users/${id}`, await sut.adminCookie(), {
      method: 'PUT',
      body: JSON.stringify({ username: 'linus', isActive: 0 }),
    });
    expect(deactivate.status).toBe(200);
    expect(await me(browser)).toBe(401);

    const again = new Browser(sut.base);
    const landed = await again.signOn(provider, 'linus');
    expect(refusalOf(landed)).toBe(ErrorCode.ACCOUNT_DEACTIVATED);
    expect(await me(again)).toBe(401);
  });

  it('does not hand a local account to a person of the provider with the same username', async () => {
    const created = await call('/api/users', await sut.adminCookie(), {
      method: 'POST',
      body: JSON.stringify({ username: 'margaret', password: 'margaret secret phrase', role: 'admin' }),
    });
    expect(created.status).toBe(201);
    provider.account('margaret', { groups: ['it-admins'] });

    const landed = await new Browser(sut.base).signOn(provider, 'margaret');

    expect(refusalOf(landed)).toBe(ErrorCode.SSO_ACCOUNT_CONFLICT);
    expect((await sut.signIn('margaret', 'margaret secret phrase')).user.external).toBe(false);
  });

  it('gives an external user no password here, and keeps their role to the provider', async () => {
    provider.account('barbara', {});
    const browser = new Browser(sut.base);
    await browser.signOn(provider, 'barbara');
    const { id } = (await me(browser)) as User;
    const admin = await sut.adminCookie();
    const change = (changes: Record<string, unknown>) =>
      call(`/api/users/${id}`, admin, {
        method: 'PUT',
        body: JSON.stringify({ username: 'barbara', ...changes }),
      });

    const password = await change({ password: 'barbara secret phrase' });
    expect(password.status).toBe(409);
    expect(await password.json()).toMatchObject({ message: authMessages.externalPassword });
    const role = await change({ role: 'admin' });
    expect(role.status).toBe(409);
    expect(await role.json()).toMatchObject({ message: authMessages.externalRole });
    // An edit that leaves both alone goes through.
    expect((await change({ role: 'user', firstName: 'Barbara' })).status).toBe(200);

    const login = await fetch(`${sut.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'barbara', password: '' }),
    });
    expect(login.status).toBe(400);
    const guessed = await fetch(`${sut.base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'barbara', password: 'anything at all' }),
    });
    expect(guessed.status).toBe(401);

    const totp = await call('/api/account/totp/setup', browser.session, { method: 'POST' });
    expect(totp.status).toBe(409);
    expect(await totp.json()).toMatchObject({ message: authMessages.externalTotp });
  });

  it('says the sign-in was cancelled when the provider refuses the person', async () => {
    const landed = await new Browser(sut.base).signOn(provider, 'nobody-the-provider-knows');
    expect(refusalOf(landed)).toBe(ErrorCode.SSO_CANCELLED);
  });

  it('writes sign-ins through the provider, and their refusals, to the audit log', async () => {
    provider.account('katherine', {});
    const browser = new Browser(sut.base);
    await browser.signOn(provider, 'katherine');
    const { id } = (await me(browser)) as User;
    await new Browser(sut.base).signOn(provider, 'katherine', {
      rewrite: (url) => {
        url.searchParams.set('state', 'forged');
        return url;
      },
    });

    const res = await call('/api/audit?entityType=session', await sut.adminCookie());
    const { items } = (await res.json()) as AuditPage;
    expect(items).toContainEqual(
      expect.objectContaining({
        action: 'sign-in',
        actorId: id,
        actorName: 'katherine',
        after: { method: 'single sign-on' },
      }),
    );
    expect(items).toContainEqual(
      expect.objectContaining({
        action: 'sign-in-failed',
        actorId: null,
        after: { username: null, method: 'single sign-on', reason: ErrorCode.SSO_FAILED },
      }),
    );
  });
});

describe('single sign-on with the provider away', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;

  beforeAll(async () => {
    // A provider that stopped: its port refuses connections.
    const gone = await TestOpenIdProvider.listen();
    await gone.close();
    sut = await startAuthAndGateway(
      {},
      { authEnv: { OIDC_ISSUER_URL: gone.issuer, OIDC_CLIENT_ID: CLIENT.clientId, OIDC_TIMEOUT_MS: '2000' } },
    );
  });

  afterAll(() => sut?.close());

  it('sends the browser back to sign in with a message, at once, and still signs in with passwords', async () => {
    const res = await fetch(`${sut.base}/api/auth/oidc/start?returnTo=/settings`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(
      `/settings?${SIGN_IN_ERROR_PARAM}=${ErrorCode.SSO_PROVIDER_UNAVAILABLE}`,
    );
    expect((await sut.signInAdmin()).user.username).toBe('chief');
  });
});
