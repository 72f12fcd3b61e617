import { type Building, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { onSharedSystem, openPhone, type WebSystem } from './browser';
import { expectNoSeriousA11yViolations } from './support/axe';

/**
 * axe-core over the main screens at 390 × 844, as an administrator sees them (the most controls):
 * no serious or critical violation on any. Screens with dialogs are checked with the dialog open.
 */
describe('web app: accessibility of the main screens', () => {
  let web: WebSystem;
  let page: Page;
  let building: Building;
  let room: Room;

  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );

  beforeAll(async () => {
    building = await web.api<Building>('POST', '/api/buildings', {
      name: 'Access Hall',
      description: 'Where every screen is checked',
    });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'A101',
      type: 'Computer Lab',
      floor: '1',
      capacity: 30,
    });
    await web.api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Projector',
      ipAddress: '127.0.38.1',
      status: 'inactive',
    });
    await web.api('POST', `/api/rooms/${room.id}/equipment`, { name: 'Lectern PC', status: 'maintenance' });
  });

  const check = async (path: string, screen: string, ready: (page: Page) => Promise<unknown>) => {
    await page.goto(path);
    await ready(page);
    await expectNoSeriousA11yViolations(page, screen);
  };
  const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name }).first().waitFor();

  it('the sign-in screen', async () => {
    const phone = await openPhone(web.browser, web.system.url);
    try {
      await phone.page.goto('/');
      await phone.page.getByRole('button', { name: 'Sign In' }).waitFor();
      await expectNoSeriousA11yViolations(phone.page, 'sign-in');
    } finally {
      await phone.context.close();
    }
  });

  it('the buildings, a building’s rooms, its QR labels and a room', async () => {
    await check('/buildings', 'buildings', heading('Campus Buildings'));
    await check(`/buildings/${building.id}/rooms`, 'rooms', heading('Access Hall Rooms'));
    await check(`/buildings/${building.id}/labels`, 'QR labels', heading('Access Hall QR labels'));
    await check(`/rooms/${room.id}`, 'room detail', (p) => p.getByTestId('equipment-card').first().waitFor());
  });

  it('the room’s dialogs: equipment details, add equipment, the QR label', async () => {
    await check(`/rooms/${room.id}`, 'room detail', (p) => p.getByTestId('equipment-card').first().waitFor());
    await page.getByTestId('equipment-card').first().click();
    await page.getByRole('dialog', { name: 'Equipment Details' }).getByTestId('timeline-figures').waitFor();
    await expectNoSeriousA11yViolations(page, 'equipment details');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '+ Add Equipment' }).click();
    await page.getByRole('dialog', { name: 'Add Equipment' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'add equipment');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'QR label' }).click();
    await page.getByRole('dialog', { name: 'QR label' }).getByText('Access Hall').waitFor();
    await expectNoSeriousA11yViolations(page, 'room QR label');
  });

  it('settings, its tabs, the device fleet, reports, users, search, account and a missing page', async () => {
    await check('/settings', 'settings: monitoring', (p) =>
      p.getByRole('button', { name: 'Check Now' }).waitFor(),
    );
    for (const tab of ['Notifications', 'API Tokens', 'Import / export', 'About']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel').waitFor();
      await expectNoSeriousA11yViolations(page, `settings: ${tab}`);
    }
    await check('/settings/fleet', 'device fleet', heading(/Fleet/));
    await check('/reports', 'reports', heading('Reports'));
    await check('/users', 'users', heading('User Management'));
    await check('/search', 'search', async (p) => {
      await p.getByLabel('Search everything').fill('Access');
      await p
        .getByRole('link', { name: /Access Hall/ })
        .first()
        .waitFor();
    });
    await check('/account', 'account', heading('Account'));
    await check('/no-such-page', 'not found', (p) => p.getByText('404 Page Not Found').waitFor());
  });
});
