import { type Building, type Equipment, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { screenshot, signedInPhonePerTest, startWebSystem, textsOf, type WebSystem } from './browser';

describe('web app: room and building health, what is down now', () => {
  let web: WebSystem;
  let page: Page;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  let hall: Building;
  let lab: Room;
  let studio: Room;
  let projector: Equipment;
  let speaker: Equipment;

  const device = (room: Room, name: string, ipAddress?: string) =>
    api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, { name, ...(ipAddress ? { ipAddress } : {}) });
  /** A person's status change, as the equipment form sends it. */
  const setStatus = (equipment: Equipment, status: string) =>
    api('PUT', `/api/equipment/${equipment.id}`, { name: equipment.name, status });
  const banner = () => page.getByRole('button', { name: /need(s)? attention in/ });
  const buildingCard = (name: string) =>
    page.getByTestId('building-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  const roomCard = (name: string) =>
    page.getByTestId('room-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  /** The Buildings screen once both its lists have answered. */
  const openBuildings = async () => {
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/problems');
    await page.goto('/buildings');
    await answered;
    await buildingCard('Health Hall').waitFor();
  };

  beforeAll(async () => {
    web = await startWebSystem();
    hall = await api<Building>('POST', '/api/buildings', { name: 'Health Hall' });
    await api<Building>('POST', '/api/buildings', { name: 'Quiet Annex' });
    lab = await api<Room>('POST', `/api/buildings/${hall.id}/rooms`, {
      name: 'H101',
      type: 'Classroom',
      floor: '1',
    });
    studio = await api<Room>('POST', `/api/buildings/${hall.id}/rooms`, {
      name: 'H102',
      type: 'Classroom',
      floor: '2',
    });
    // No answering addresses: only the changes this test makes set their status.
    projector = await device(lab, 'Projector');
    await device(lab, 'Display');
    speaker = await device(studio, 'Speaker');
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('shows no banner and no status chips while everything is up', async () => {
    await openBuildings();
    expect(await banner().count()).toBe(0);
    expect(await page.getByTestId('status-chips').count()).toBe(0);
  });

  it('shows a device set inactive in the banner, on its building card and on its room card', async () => {
    await setStatus(projector, 'inactive');
    await openBuildings();
    expect(await banner().innerText()).toBe('1 device needs attention in 1 room');
    expect(await textsOf(buildingCard('Health Hall').getByTestId('status-chips'))).toEqual([
      expect.stringMatching(/^Partial\s+1 inactive$/i),
    ]);
    expect(await buildingCard('Quiet Annex').getByTestId('status-chips').count()).toBe(0);
    await screenshot(page, 'buildings-attention-banner');

    await page.goto(`/buildings/${hall.id}/rooms`);
    // Two devices, one of them down: the room reads as partial.
    const chips = roomCard('H101').getByTestId('status-chips');
    await chips.waitFor();
    expect(await chips.getAttribute('data-rollup')).toBe('partial');
    expect(await chips.getByText('1 inactive').isVisible()).toBe(true);
    expect(await roomCard('H102').getByTestId('status-chips').count()).toBe(0);
    await screenshot(page, 'rooms-health-chips');
  });

  it('opens the grouped list from the banner, longest down first, each room linking to it', async () => {
    await setStatus(speaker, 'partial');
    await openBuildings();
    expect(await banner().innerText()).toBe('2 devices need attention in 2 rooms');
    await banner().click();
    const dialog = page.getByRole('dialog', { name: 'Needs attention' });
    await dialog.waitFor();
    // The projector went down first: its room comes first.
    expect(await textsOf(dialog.getByRole('link'))).toEqual(['H101 · Floor 1', 'H102 · Floor 2']);
    const devices = await textsOf(dialog.getByTestId('problem-device'));
    expect(devices).toEqual([
      expect.stringMatching(/^Projector\s+Inactive\s+No address\s+for /),
      expect.stringMatching(/^Speaker\s+Partial\s+No address\s+for /),
    ]);
    expect(await dialog.getByRole('region', { name: 'Health Hall' }).isVisible()).toBe(true);
    await screenshot(page, 'problems-list');

    await dialog.getByRole('link', { name: /H102/ }).click();
    await page.getByRole('heading', { name: 'H102', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/rooms/${studio.id}`);
  });

  it('takes the banner away once every device is back', async () => {
    await setStatus(projector, 'active');
    await setStatus(speaker, 'active');
    await openBuildings();
    expect(await banner().count()).toBe(0);
  });
});
