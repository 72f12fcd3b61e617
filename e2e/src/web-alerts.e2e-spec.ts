import { type ChannelCreated, type Equipment, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type Page } from 'playwright-core';
import { startReceiver } from '../../services/inventory/test/receivers';
import { screenshot, signedInPhonePerTest, type WebSystem } from './browser';
import { type AlertingRoom, startAlertingRoom } from './support/alerting-room';

/**
 * The whole path of an alert: the real monitor pings a projector on loopback and a display at an
 * address routed into a network namespace this test creates, where nobody answers; after two
 * failed checks the room's alert opens, a webhook receives it, and the room detail shows it.
 */
describe('web app: an open alert on the room detail, from the monitor to the webhook', () => {
  let web: WebSystem;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let alerting: AlertingRoom;
  let room: Room;
  let display: Equipment;
  const signing: { secret?: string } = {};
  const checkNow = () => alerting.checkNow();

  beforeAll(async () => {
    receiver = await startReceiver(() => signing.secret);
    alerting = await startAlertingRoom();
    ({ web, room, display } = alerting);
    const channel = await web.api<ChannelCreated>('POST', '/api/notification-channels', {
      name: 'AV team',
      type: 'webhook',
      url: receiver.url,
    });
    signing.secret = channel.secret!;
  });
  afterAll(async () => {
    await alerting?.close();
    await receiver?.close();
  });
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('opens after two failed checks, shows on the room detail, and closes when the display answers', async () => {
    await checkNow();
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: '204' }).waitFor();
    expect(await page.getByRole('region', { name: 'Open alert' }).count()).toBe(0);

    await checkNow();
    // Generous limits: they wait for an event, and a loaded machine takes its time.
    await eventually(() => expect(receiver.received).toHaveLength(1), 60_000);
    const [opened] = receiver.received;
    expect(opened.signatureValid).toBe(true);
    expect(opened.body).toMatchObject({
      kind: 'alert.opened',
      text: `Room 204, Science Hall: 1 of 2 devices offline — Display (${display.ipAddress})`,
    });

    // Pushed to the open screen by the live event, without a reload.
    const section = page.getByRole('region', { name: 'Open alert' });
    await section.waitFor({ timeout: 30_000 });
    expect(await section.getByText(/^1 of 2 devices not answering since /).count()).toBe(1);
    const devices = section.getByRole('list', { name: 'Devices in the alert' }).getByRole('listitem');
    expect(await devices.allInnerTexts()).toEqual([
      expect.stringMatching(
        new RegExp(`^Display \\(${display.ipAddress!.replace(/\./g, '\\.')}\\)\\s*Inactive since `),
      ),
    ]);
    // Near the top at 390 × 844, without scrolling: above the bottom navigation bar.
    await page.evaluate('window.scrollTo(0, 0)');
    const box = (await section.boundingBox())!;
    const bar = (await page.getByRole('navigation').last().boundingBox())!;
    expect(box.y + Math.min(box.height, 80)).toBeLessThanOrEqual(bar.y);
    await screenshot(page, 'room-detail-open-alert');

    // The display moves to an address that answers: the next check closes the alert.
    await web.api('PUT', `/api/equipment/${display.id}`, { name: 'Display', ipAddress: '127.0.0.6' });
    await eventually(async () => {
      await checkNow();
      expect(receiver.received.map((r) => r.body.kind)).toEqual(['alert.opened', 'alert.recovered']);
    }, 60_000);
    await section.waitFor({ state: 'detached', timeout: 30_000 });
  });
});
