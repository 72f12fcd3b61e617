import { type Equipment, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { startFakeServiceNow } from '../../services/inventory/test/support/fake-servicenow';
import { expectToast, screenshot, signedInPhonePerTest, type WebSystem } from './browser';
import { type AlertingRoom, startAlertingRoom } from './support/alerting-room';

/**
 * A ServiceNow channel added in Settings → Notifications at phone size against a fake instance on
 * loopback, tested from its card; then the real monitor finds a room's display silent (an address
 * routed into a namespace where nobody answers), the alert opens an incident with the urgency the
 * form chose, and the room's screen and the delivery log show its number, linked.
 */
describe('web app: a ServiceNow channel from the form to the incident on the room', () => {
  let web: WebSystem;
  let page: Page;
  let sn: Awaited<ReturnType<typeof startFakeServiceNow>>;
  let alerting: AlertingRoom;
  let room: Room;
  let display: Equipment;
  const checkNow = () => alerting.checkNow();

  beforeAll(async () => {
    sn = await startFakeServiceNow();
    alerting = await startAlertingRoom();
    ({ web, room, display } = alerting);
  });
  afterAll(async () => {
    await alerting?.close();
    await sn?.http.stop();
  });
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('adds the channel in the form, tests it, and shows the incident number on the room and in the log', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('AV desk');
    await dialog.getByLabel('Type').click();
    await page.getByRole('option', { name: 'ServiceNow' }).click();
    await dialog.getByLabel('Instance URL').fill(sn.http.url);
    await dialog.getByLabel('Integration user').fill(sn.credentials.username);
    await dialog.getByLabel('Password').fill(sn.credentials.secret);
    // Some devices offline is urgent here: the incident must say so.
    await dialog.getByLabel('Urgency when some devices are offline').click();
    await page.getByRole('option', { name: '1 – High' }).click();
    await dialog.getByLabel('Assignment group').fill('AV Support');
    await dialog.getByRole('button', { name: 'Add channel' }).click();
    await expectToast(page, 'Channel added', 'AV desk was added.');
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Send test to AV desk' }).click();
    await page
      .getByTestId('test-outcome')
      .getByText('"AV desk" answered: its user can read incidents (the test opens none).')
      .waitFor();
    expect(sn.incidents).toEqual([]);

    await checkNow();
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: '204' }).waitFor();
    await checkNow();
    // The alert, then its incident, pushed to the open screen by live events, without a reload.
    const section = page.getByRole('region', { name: 'Open alert' });
    const link = section.getByRole('link', { name: 'INC0010001' });
    // Generous: it waits for the monitor, the alert's grouping window and the relay.
    await link.waitFor({ timeout: 60_000 });
    const [incident] = sn.incidents;
    expect(await link.getAttribute('href')).toBe(
      `${sn.http.url}/nav_to.do?uri=incident.do%3Fsys_id%3D${incident.sys_id}`,
    );
    expect(await section.locator('p', { hasText: 'Incident:' }).innerText()).toBe(
      'Incident: AV desk INC0010001',
    );
    expect(incident).toMatchObject({
      state: '1',
      correlation_id: expect.stringMatching(/^cm-[0-9a-f-]{36}$/),
      fields: expect.objectContaining({
        short_description: 'Room 204, Science Hall: 1 of 2 devices offline',
        urgency: '1',
        impact: '2',
        assignment_group: 'AV Support',
      }),
    });
    expect(String(incident.fields.description)).toContain(`Display (${display.ipAddress}): offline`);
    // Near the top at 390 × 844, without scrolling: above the bottom navigation bar.
    await page.evaluate('window.scrollTo(0, 0)');
    const box = (await link.boundingBox())!;
    const bar = (await page.getByRole('navigation').last().boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
    await screenshot(page, 'service-desk-incident-on-room');

    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    const logged = page.getByTestId('delivery').filter({ hasText: 'alert.opened' });
    await logged.getByRole('link', { name: 'INC0010001' }).waitFor();
    expect(await logged.getByText('Sent', { exact: true }).count()).toBe(1);
  });
});
