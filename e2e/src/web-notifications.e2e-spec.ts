import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type Channel } from '@cm/contracts';
import { type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  screenshot,
  signedInPhonePerTest,
  startWebSystem,
  type WebSystem,
} from './browser';
import { expectNoSeriousA11yViolations } from './support/axe';

/** Settings → Notifications at phone size: a webhook channel, its secret once, its test, the log. */
describe('web app: notification channels', () => {
  let web: WebSystem;
  let page: Page;
  let receiver: Server;
  let secret = '';
  const received: { valid: boolean; body: { kind?: string; text?: string } }[] = [];

  beforeAll(async () => {
    // A receiver as the documentation says to write one: HMAC-SHA256 of "<t>.<body>", t recent.
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const header = String(req.headers['x-cm-signature'] ?? '');
        const t = /t=(\d+)/.exec(header)?.[1];
        const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
        const valid =
          !!t &&
          !!v1 &&
          Math.abs(Date.now() / 1000 - Number(t)) < 300 &&
          timingSafeEqual(
            createHmac('sha256', secret).update(`${t}.${raw}`).digest(),
            Buffer.from(v1, 'hex'),
          );
        received.push({ valid, body: JSON.parse(raw) as { kind?: string; text?: string } });
        res.writeHead(valid ? 200 : 401).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    web = await startWebSystem({
      ALERTS_SECRET_KEY: randomBytes(32).toString('base64'),
      ALERTS_ALLOWED_TARGETS: '127.0.0.1',
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
  });
  afterAll(async () => {
    await web?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('adds a webhook channel, shows its secret once, tests it and logs the delivery', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/av-hook`;
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByText('No channels yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog');
    // No SMTP server on this system: e-mail is not offered, and the form says what to set.
    expect(await dialog.getByTestId('channel-type-unavailable').innerText()).toMatch(
      /^E-mail is not offered: E-mail channels need an SMTP server: set SMTP_HOST/,
    );
    await dialog.getByLabel('Type').click();
    await page.getByRole('option', { name: 'Webhook' }).waitFor();
    expect(await page.getByRole('option', { name: 'E-mail' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await dialog.getByLabel('Name').fill('AV on-call');
    await dialog.getByLabel('Webhook URL').fill(url);
    await screenshot(page, 'notifications-add-webhook');
    await dialog.getByRole('button', { name: 'Add channel' }).click();

    const shown = page.getByTestId('channel-secret');
    secret = (await shown.innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await expectToast(page, 'Channel added', 'AV on-call was added.');
    await screenshot(page, 'notifications-secret-once');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    // Once: neither the screen nor the API shows it again.
    await page.reload();
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByTestId('channel').filter({ hasText: 'AV on-call' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(JSON.stringify(await web.api<Channel[]>('GET', '/api/notification-channels'))).not.toContain(
      secret,
    );

    await page.getByRole('button', { name: 'Send test to AV on-call' }).click();
    await page.getByTestId('test-outcome').getByText('Test message sent to "AV on-call".').waitFor();
    expect(received).toEqual([{ valid: true, body: expect.objectContaining({ kind: 'test' }) }]);

    const logged = page.getByTestId('delivery').filter({ hasText: 'AV on-call' });
    await logged.getByText('Sent', { exact: true }).waitFor();
    expect(await logged.innerText()).toContain('Test message from Classroom Monitor');
    await screenshot(page, 'notifications-tested');
    // With a channel, its buttons and the log on screen: axe finds nothing serious (the buttons'
    // spoken names begin with their visible words).
    await expectNoSeriousA11yViolations(page, 'settings: notifications with a channel');

    // A lost secret is replaced, not shown again: the new one is shown once, and signs from then on.
    const asked = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'New secret for AV on-call' }).click();
    expect(await asked).toContain('its receiver must be given it');
    const renewed = (await page.getByTestId('channel-secret').innerText()).trim();
    expect(renewed).toMatch(/^whsec_/);
    expect(renewed).not.toBe(secret);
    secret = renewed;
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test to AV on-call' }).click();
    await page.getByTestId('delivery').nth(1).waitFor();
    expect(received.map((r) => r.valid)).toEqual([true, true]);
  });
});
