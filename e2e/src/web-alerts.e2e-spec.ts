import { type ChannelCreated, type Equipment, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type Page } from 'playwright-core';
import { startReceiver } from '../../services/inventory/test/receivers';
import { screenshot, signedInPhonePerTest, type WebSystem } from './browser';
import { type AlertingRoom, startAlertingRoom } from './support/alerting-room';
import { addRoomTimetable, calendarFile } from './support/calendar';

/**
 * The whole path of an alert: the real monitor pings a projector on loopback and a display at an
 * address routed into a network namespace this test creates, where nobody answers; after two
 * failed checks the room's alert opens, a webhook receives it, and the room detail shows it. With
 * a class in the room soon, the next alert goes out at once outside teaching hours, marked urgent.
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

  it('sends the next alert at once outside teaching hours when a class begins soon, urgent and naming the class', async () => {
    // Teaching hours that are not now: without a class, the alert would wait for their digest.
    const hours =
      new Date().getUTCHours() < 12 ? { start: '20:00', end: '21:00' } : { start: '02:00', end: '03:00' };
    await web.api('PUT', `/api/buildings/${room.buildingId}/quiet-hours`, {
      days: [1, 2, 3, 4, 5, 6, 7],
      ...hours,
      timeZone: 'UTC',
      outside: 'digest',
    });
    const start = Math.ceil((Date.now() + 10 * 60_000) / 60_000) * 60_000;
    await addRoomTimetable(
      web.system.url,
      web.adminCookie,
      room,
      calendarFile([{ uid: 'phys-204@e2e', title: 'PHYS 101', start, end: start + 75 * 60_000 }]),
    );

    // The display is silent again.
    await web.api('PUT', `/api/equipment/${display.id}`, { name: 'Display', ipAddress: display.ipAddress });
    await eventually(async () => {
      await checkNow();
      expect(receiver.received.map((r) => r.body.kind)).toEqual([
        'alert.opened',
        'alert.recovered',
        'alert.opened',
      ]);
    }, 60_000);
    expect(receiver.received[2].body).toMatchObject({
      urgent: true,
      class: {
        title: 'PHYS 101',
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + 75 * 60_000).toISOString(),
      },
    });
  });
});
