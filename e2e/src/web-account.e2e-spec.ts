import { Secret, TOTP } from 'otpauth';
import { type Page } from 'playwright-core';
import {
  expectToast,
  openPhone,
  openSharedWebSystem,
  type Phone,
  screenshot,
  signInThroughForm,
  textsOf,
  type WebSystem,
} from './browser';
import { createUser, signIn } from './session';

/** The code an authenticator app shows `offsetSeconds` from now. */
const codeOf = (secret: string, offsetSeconds = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

/**
 * The Account screen's password change and two-factor sign-in, and the sign-in page's second
 * step, in a phone's browser.
 */
describe('web app: account', () => {
  let web: WebSystem;
  let phone: Phone;
  let page: Page;

  beforeAll(async () => {
    web = await openSharedWebSystem();
  });
  beforeEach(async () => {
    phone = await openPhone(web.browser, web.system.url);
    page = phone.page;
  });
  afterEach(async () => {
    await phone.context.close();
    expect(phone.problems).toEqual([]);
  });
  afterAll(() => web?.close());

  it('changes the password: refuses an easy one, then keeps this session and ends the others', async () => {
    const user = { username: `pwd-${Date.now().toString(36)}`, password: 'pwd user secret' };
    await createUser(web.system.url, web.adminCookie, user);
    const elsewhere = await signIn(web.system.url, user.username, user.password);
    await signInThroughForm(page, user);
    await page.getByRole('link', { name: 'Account' }).click();
    const form = page.getByRole('form', { name: 'Change password' });
    const change = async (current: string, next: string) => {
      await form.getByLabel('Current password').fill(current);
      await form.getByLabel('New password', { exact: true }).fill(next);
      await form.getByLabel('New password again').fill(next);
      await form.getByRole('button', { name: 'Change password' }).click();
    };

    await change(user.password, 'password1234');
    await expectToast(page, 'Password not changed', 'This password is too easy to guess.', 'destructive');
    await form.getByText('This password is too easy to guess.').waitFor();
    await screenshot(page, 'account-password-refused');
    const newPassword = 'pwd takes the long way round';
    await change(user.password, newPassword);
    await expectToast(page, 'Password changed', 'Your other sessions have been signed out.');

    const asElsewhere = await fetch(`${web.system.url}/api/auth/user`, { headers: { cookie: elsewhere } });
    expect(asElsewhere.status).toBe(401);
    await page.reload();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    // Signed out at /account, signed in back there.
    await page.getByRole('heading', { name: 'Account' }).waitFor();
  });

  it('enrols with the QR code and a code, shows the recovery codes once, then asks for a code at sign-in', async () => {
    const user = { username: `otp-${Date.now().toString(36)}`, password: 'otp user secret' };
    await createUser(web.system.url, web.adminCookie, user);
    await signInThroughForm(page, user);

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    expect(await qr.getAttribute('data-qr-text')).toBe(
      `otpauth://totp/Classroom%20Monitor:${user.username}?issuer=Classroom%20Monitor&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
    );
    await screenshot(page, 'account-enrol');

    const enrolmentCode = codeOf(secret);
    await page.getByLabel('Code from the app').fill(enrolmentCode);
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expectToast(page, 'Two-factor sign-in is on', 'Sign-in will ask for a code from now on.');
    const codes = await textsOf(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'));
    expect(codes).toHaveLength(10);
    await screenshot(page, 'account-recovery-codes');
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    await page.getByText('10 of 10 recovery codes left').waitFor();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const code = page.getByLabel('Two-factor code');
    await code.waitFor();
    // The enrolment's code is spent (the very code, not the app's current one, which is a new code
    // once its 30 s step has passed): the app's next one signs in.
    await code.fill(enrolmentCode);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expectToast(page, 'Sign in failed', 'The code is wrong or was already used', 'destructive');
    await code.fill(codeOf(secret, 30));
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed out at /account, signed in back there.
    await page.getByRole('heading', { name: 'Two-factor sign-in is on' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
  });

  it('signs in with a recovery code, after which one fewer is left', async () => {
    const user = { username: `otr-${Date.now().toString(36)}`, password: 'otr user secret' };
    await createUser(web.system.url, web.adminCookie, user);
    await signInThroughForm(page, user);
    await page.goto('/account');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    await page.getByLabel('Code from the app').fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const [first] = await textsOf(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem'));
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).click();

    await page.getByLabel('Username').fill(user.username);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByLabel('Two-factor code').fill(first);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('9 of 10 recovery codes left').waitFor();
  });
});
