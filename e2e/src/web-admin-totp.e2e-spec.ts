import { randomBytes } from 'node:crypto';
import { eventually } from '@cm/platform/testing';
import { Secret, TOTP } from 'otpauth';
import { openPhone, type Phone, screenshot, startWebSystem, type WebSystem } from './browser';

const codeOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** REQUIRE_ADMIN_TOTP in the browser: a system of its own, since it holds the first administrator. */
describe('web app: two-factor sign-in required of administrators', () => {
  let web: WebSystem;
  let phone: Phone;

  beforeAll(async () => {
    web = await startWebSystem({
      REQUIRE_ADMIN_TOTP: 'true',
      AUTH_TOTP_KEY: randomBytes(32).toString('base64'),
    });
  });
  afterAll(() => web?.close());

  it('shows an administrator without it only the Account screen until they have enrolled', async () => {
    phone = await openPhone(web.browser, web.system.url);
    const { page } = phone;
    await page.goto('/users');
    await page.getByLabel('Username').fill(web.system.admin.username);
    await page.getByLabel('Password').fill(web.system.admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();

    await page.getByRole('alert').filter({ hasText: 'Administrators must use two-factor sign-in' }).waitFor();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    // Every other screen is the same while enrolment is due.
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Reports' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
    // A wrong code sent with Enter: its toast comes while the field is still being typed in, and
    // the field is moved up clear of it rather than hidden under it for five seconds.
    const field = page.getByLabel('Code from the app');
    await field.fill('000000');
    await field.press('Enter');
    const toast = page
      .locator('[data-slot="toast"][data-state="open"]')
      .filter({ hasText: 'Code not accepted' });
    await toast.waitFor();
    await eventually(async () => {
      const box = (await field.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual((await toast.boundingBox())!.y);
    });
    await screenshot(page, 'totp-code-clear-of-toast', { keepToasts: true });
    await field.fill(codeOf(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'I have saved these codes' }).click();

    // The same session now reaches everything: the address asked for last shows.
    await page.getByRole('heading', { name: 'Reports' }).waitFor();
    await phone.context.close();
    expect(phone.problems).toEqual([]);
  });
});
