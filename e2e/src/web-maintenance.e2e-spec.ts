import {
  type Building,
  type Equipment,
  type MaintenanceWindow,
  type Problems,
  type Room,
} from '@cm/contracts';
import { type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  openSharedWebSystem,
  screenshot,
  signedInPhonePerTest,
  textsOf,
  type WebSystem,
} from './browser';

const HOUR = 3_600_000;

describe('web app: maintenance windows on the room detail', () => {
  let web: WebSystem;
  let page: Page;
  let building: Building;
  let room: Room;
  let projector: Equipment;

  /** The instant as the phone shows it (its language and time zone, as the screen formats it). */
  const shown = (iso: string) =>
    page.evaluate(
      `new Date(${JSON.stringify(iso)}).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })`,
    ) as Promise<string>;
  const windowsOfRoom = () =>
    web.api<MaintenanceWindow[]>('GET', `/api/maintenance-windows?roomId=${room.id}&active=true`);

  beforeAll(async () => {
    web = await openSharedWebSystem();
    building = await web.api<Building>('POST', '/api/buildings', { name: 'Maintenance Hall' });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'M204',
      type: 'Lecture Hall',
      floor: '2',
    });
    projector = await web.api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, { name: 'Projector' });
    // One to come, for the projector alone: listed as planned, and the room is not in maintenance for it.
    await web.api('POST', '/api/maintenance-windows', {
      equipmentId: projector.id,
      startsAt: new Date(Date.now() + 24 * HOUR).toISOString(),
      endsAt: new Date(Date.now() + 26 * HOUR).toISOString(),
      reason: 'Firmware update',
    });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('adds a window for the room, shows "In maintenance until …", and deletes it after confirmation', async () => {
    await page.goto(`/rooms/${room.id}`);
    const section = page.getByRole('region', { name: 'Maintenance', exact: true });
    const cards = section.getByTestId('maintenance-window');
    await cards.first().waitFor();
    expect(await textsOf(cards)).toEqual([
      expect.stringMatching(/^Projector\s*Planned[\s\S]*Firmware update$/),
    ]);
    expect(await page.getByText(/^In maintenance until/).count()).toBe(0);

    await section.getByRole('button', { name: '+ Add Window' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Maintenance Window' });
    // From now for two hours, for this room, unless changed.
    expect(await dialog.getByRole('combobox', { name: 'For' }).innerText()).toBe('This room');
    await dialog.getByLabel('Reason *').fill('Replacing the projector lamp');
    await screenshot(page, 'maintenance-window-form');
    await dialog.getByRole('button', { name: 'Add Window' }).click();
    await expectToast(page, 'Success', 'Maintenance window added');
    await dialog.waitFor({ state: 'detached' });

    const [added] = await windowsOfRoom();
    expect(added).toMatchObject({ roomId: room.id, reason: 'Replacing the projector lamp' });
    expect(Date.parse(added.endsAt) - Date.parse(added.startsAt)).toBe(2 * HOUR);
    const notice = page.getByRole('status').filter({ hasText: 'In maintenance until' });
    expect(await notice.innerText()).toBe(`In maintenance until ${await shown(added.endsAt)}`);
    // In force first, then the projector's to come.
    expect(await textsOf(cards)).toEqual([
      expect.stringMatching(/^This room\s*Now[\s\S]*Replacing the projector lamp$/),
      expect.stringMatching(/^Projector\s*Planned/),
    ]);
    await notice.scrollIntoViewIfNeeded();
    await screenshot(page, 'maintenance-room-notice');
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'maintenance-room-windows');

    const confirmed = answerNextConfirm(page, true);
    await section
      .getByRole('button', { name: 'Delete maintenance window: Replacing the projector lamp' })
      .click();
    expect(await confirmed).toBe('Delete the maintenance window "Replacing the projector lamp" (This room)?');
    await expectToast(page, 'Success', 'Maintenance window deleted');
    await notice.waitFor({ state: 'detached' });
    expect(await textsOf(cards)).toEqual([expect.stringMatching(/^Projector\s*Planned/)]);
    await expect(windowsOfRoom()).resolves.toEqual([]);
  });

  it('keeps a window whose deletion is not confirmed', async () => {
    await page.goto(`/rooms/${room.id}`);
    const section = page.getByRole('region', { name: 'Maintenance', exact: true });
    const dismissed = answerNextConfirm(page, false);
    await section.getByRole('button', { name: 'Delete maintenance window: Firmware update' }).click();
    await dismissed;
    expect(await section.getByTestId('maintenance-window').count()).toBe(1);
    const all = await web.api<MaintenanceWindow[]>(
      'GET',
      `/api/maintenance-windows?equipmentId=${projector.id}`,
    );
    expect(all.map((w) => w.reason)).toEqual(['Firmware update']);
  });

  it('counts a device that is down under a window in force as in maintenance, not as needing attention', async () => {
    const closed = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'M205',
      type: 'Classroom',
      floor: '2',
    });
    const display = await web.api<Equipment>('POST', `/api/rooms/${closed.id}/equipment`, {
      name: 'Display',
      status: 'inactive',
    });
    const roomCard = page
      .getByTestId('room-card')
      .filter({ has: page.getByRole('heading', { name: 'M205' }) });
    await page.goto(`/buildings/${building.id}/rooms`);
    expect(await textsOf(roomCard.getByTestId('status-chips'))).toEqual([
      expect.stringMatching(/^Inactive\s+1 inactive$/i),
    ]);

    await web.api('POST', '/api/maintenance-windows', {
      roomId: closed.id,
      startsAt: new Date(Date.now() - HOUR).toISOString(),
      endsAt: new Date(Date.now() + HOUR).toISOString(),
      reason: 'Rewiring',
    });
    await page.reload();
    expect(await textsOf(roomCard.getByTestId('status-chips'))).toEqual(['1 in maintenance']);
    const problems = await web.api<Problems>('GET', '/api/problems');
    const listed = problems.buildings.flatMap((b) => b.rooms.flatMap((r) => r.devices.map((d) => d.id)));
    expect(listed).not.toContain(display.id);
    await screenshot(page, 'maintenance-window-counts');
  });
});
