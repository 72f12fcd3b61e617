import { ErrorCode, singleSignOnMessages, type User } from '@cm/contracts';
import { TestOpenIdProvider } from '@cm/platform/testing';
import { openPhone, type Phone, screenshot, startWebSystem, type WebSystem } from './browser';

const CLIENT = { clientId: 'classroom-monitor', clientSecret: 'provider client secret phrase' };

/** Single sign-on in the browser, against a real OpenID provider on loopback. */
describe('web app: single sign-on', () => {
  let provider: TestOpenIdProvider;
  let web: WebSystem;
  let phone: Phone;

  beforeAll(async () => {
    provider = await TestOpenIdProvider.listen();
    web = await startWebSystem({
      OIDC_ISSUER_URL: provider.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_DISPLAY_NAME: 'Campus Login',
      OIDC_ADMIN_GROUPS: 'av-admins',
      OIDC_SCOPES: 'openid profile email groups',
    });
    await provider.serve({ ...CLIENT, redirectUris: [`${web.system.url}/api/auth/oidc/callback`] });
  });
  afterEach(() => phone?.context.close());
  afterAll(async () => {
    await web?.close();
    await provider?.close();
  });

  /** From a signed-out deep link: the app's button, the provider's page, and back. */
  async function signOn(path: string, login: string) {
    phone = await openPhone(web.browser, web.system.url);
    const { page } = phone;
    await page.goto(path);
    await page.getByRole('link', { name: 'Sign in with Campus Login' }).click();
    await page.getByRole('heading', { name: 'Campus sign-in' }).waitFor();
    await page.getByLabel('Login').fill(login);
    await page.getByRole('button', { name: 'Continue' }).click();
    return page;
  }

  it('signs a person in with the provider and lands on the screen they opened', async () => {
    provider.account('grace', { given_name: 'Grace', family_name: 'Hopper', groups: ['av-admins'] });
    const page = await signOn('/reports', 'grace');

    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/reports');
    // An administrator by group: User Management lists them as a single sign-on account.
    await page.goto('/users');
    await page.getByText('grace', { exact: true }).waitFor();
    await screenshot(page, 'single-sign-on-users');
    const users = await web.api<User[]>('GET', '/api/users');
    expect(users.find((u) => u.username === 'grace')).toMatchObject({ role: 'admin', external: true });
    expect(phone.problems).toEqual([]);
  });

  it('shows a deactivated person why they cannot sign in', async () => {
    provider.account('linus', {});
    await (await signOn('/buildings', 'linus')).getByRole('heading', { name: 'Buildings' }).waitFor();
    await phone.context.close();
    const linus = (await web.api<User[]>('GET', '/api/users')).find((u) => u.username === 'linus')!;
    await web.api('PUT', `/api/users/${linus.id}`, { username: 'linus', isActive: 0 });

    const page = await signOn('/buildings', 'linus');

    await page
      .getByRole('alert')
      .filter({ hasText: singleSignOnMessages[ErrorCode.ACCOUNT_DEACTIVATED] })
      .waitFor();
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    // The refusal's code is not left in the address to show again on a reload.
    expect(new URL(page.url()).search).toBe('');
    await screenshot(page, 'single-sign-on-refused');
  });
});
