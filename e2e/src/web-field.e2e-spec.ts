import { randomUUID } from 'node:crypto';
import { type Building, type Room } from '@cm/contracts';
import { type Locator, type Page, type Request } from 'playwright-core';
import { expectToast, onSharedSystem, pngImage, screenshot, type WebSystem } from './browser';

// The web app's deadline for a call, shortened so that a call that never answers fails in seconds
// (still long enough for a real answer on a loaded machine).
const DEADLINE_MS = 5_000;

/**
 * Whether the element has the keyboard focus, or gets it within 5 s: a dialog moves it in an effect
 * after it opens or closes, which a loaded machine runs after the dialog is seen or gone.
 */
async function focused(locator: Locator): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < 5_000; await locator.page().waitForTimeout(50)) {
    if (await locator.evaluate((el) => el === el.ownerDocument.activeElement)) return true;
  }
  return false;
}

/**
 * Issue 22, a technician on a phone in a basement: saves without a network or an answer, screens
 * opened offline, dialogs by keyboard, the IP address keyboard, upload failures and not-found
 * addresses, at 390×844.
 */
describe('web app: bad signal, keyboard and messages', () => {
  let web: WebSystem;
  let page: Page;

  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );

  const buildingsNamed = async (name: string) =>
    (await web.api<Building[]>('GET', '/api/buildings')).filter((b) => b.name === name);
  const openAddBuilding = async (name: string) => {
    await page.goto('/buildings');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    await page.getByRole('button', { name: 'Add building' }).click();
    await page.getByLabel('Building Name *').fill(name);
  };
  const offlineBanner = () => page.getByRole('status').filter({ hasText: 'You are offline.' });

  it('keeps a save made offline on the phone, closes the form, and sends it once online', async () => {
    const name = `Basement ${randomUUID().slice(0, 8)}`;
    await openAddBuilding(name);
    await page.context().setOffline(true);
    await offlineBanner().waitFor();

    await page.getByRole('button', { name: 'Add Building' }).click();
    await expectToast(page, 'Saved on this phone', 'It will be sent when the connection is back.');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    await page.getByRole('button', { name: '1 change waiting' }).waitFor();
    await screenshot(page, 'field-save-offline', { keepToasts: true });

    await page.context().setOffline(false);
    await offlineBanner().waitFor({ state: 'detached' });
    await expectToast(page, 'Changes sent', '1 change saved on the server.');
    expect(await buildingsNamed(name)).toHaveLength(1);
  });

  it('gives up on a save whose answer never comes, and its retry makes one building, not two', async () => {
    // Only this test shortens the deadline: on a loaded machine a real answer can take longer
    // than that, and the other tests' saves and screens must not fail for it.
    await page.context().addInitScript(`localStorage.setItem('cm.requestDeadlineMs', '${DEADLINE_MS}')`);
    const name = `Stairwell ${randomUUID().slice(0, 8)}`;
    await openAddBuilding(name);
    // The server gets the first save and makes the building; its answer never reaches the phone.
    const sent: Request[] = [];
    await page.route('**/api/buildings', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      sent.push(route.request());
      if (sent.length > 1) return route.continue();
      await route.fetch();
      // never fulfilled
    });

    await page.getByRole('button', { name: 'Add Building' }).click();
    await page.getByRole('button', { name: 'Adding...' }).waitFor();
    // A save that hangs can always be left.
    expect(await page.getByRole('button', { name: 'Cancel' }).isEnabled()).toBe(true);
    await expectToast(page, 'Error', 'Failed to add building', 'destructive');
    expect(await page.getByRole('button', { name: 'Add Building' }).isEnabled()).toBe(true);
    expect(await buildingsNamed(name)).toHaveLength(1);

    await page.getByRole('button', { name: 'Add Building' }).click();
    await expectToast(page, 'Success', 'Building added successfully');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    expect(await buildingsNamed(name)).toHaveLength(1);
    const keys = await Promise.all(sent.map((r) => r.headerValue('idempotency-key')));
    expect(keys).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/), keys[0]]);
  });

  it('says a screen never read and opened offline is offline, with Retry, and loads it by itself once back online', async () => {
    const building = await web.api<Building>('POST', '/api/buildings', {
      name: `Cellar ${randomUUID().slice(0, 8)}`,
    });
    await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'C-01',
      type: 'Classroom',
      floor: 'B1',
    });
    // The rooms screen's code is loaded once online, as it is after any earlier visit, on another
    // building: the rooms of one already read would be shown offline from the phone.
    const other = await web.api<Building>('POST', '/api/buildings', {
      name: `Loft ${randomUUID().slice(0, 8)}`,
    });
    await page.goto(`/buildings/${other.id}/rooms`);
    await page.getByText('No rooms found').waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    const card = page
      .getByTestId('building-card')
      .filter({ has: page.getByRole('heading', { name: building.name, exact: true }) });
    await card.waitFor();

    await page.context().setOffline(true);
    await card.getByRole('link').click();
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
    expect(await offlineBanner().isVisible()).toBe(true);
    await screenshot(page, 'field-screen-offline');

    await page.context().setOffline(false);
    await page.getByRole('heading', { name: 'C-01' }).waitFor();
    expect(await page.getByRole('heading', { name: 'You are offline' }).count()).toBe(0);
    expect(await offlineBanner().count()).toBe(0);
  });

  it('opens dialogs on their first field, gives the focus back to the opener, and closes with one Escape under a toast', async () => {
    const building = await web.api<Building>('POST', '/api/buildings', {
      name: `Keys ${randomUUID().slice(0, 8)}`,
    });
    const room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'K-10',
      type: 'Classroom',
      floor: '1',
    });

    await page.goto(`/buildings/${building.id}/rooms`);
    const addRoom = page.getByRole('button', { name: 'Add room' });
    await addRoom.click();
    const roomDialog = page.getByRole('dialog', { name: 'Add Room' });
    await roomDialog.waitFor();
    expect(await focused(roomDialog.getByLabel('Room Name *'))).toBe(true);
    await page.keyboard.press('Escape');
    await roomDialog.waitFor({ state: 'detached' });
    expect(await focused(addRoom)).toBe(true);

    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: 'K-10', level: 1 }).waitFor();
    const addFirst = page.getByRole('button', { name: 'Add First Equipment' });
    await addFirst.click();
    const dialog = page.getByRole('dialog', { name: 'Add Equipment' });
    await dialog.waitFor();
    expect(await focused(dialog.getByRole('combobox', { name: 'Preset Product' }))).toBe(true);
    await screenshot(page, 'field-dialog-first-field');

    // The address keyboard has "-", and nothing capitalises or corrects what is typed.
    const address = dialog.getByLabel('IP Address');
    expect(await address.getAttribute('inputmode')).toBe('text');
    expect(await address.getAttribute('autocapitalize')).toBe('none');
    expect(await address.getAttribute('autocorrect')).toBe('off');
    await address.fill('10.0.0.5-73');
    expect(await address.inputValue()).toBe('10.0.0.5-73');

    await page.route('**/api/rooms/*/equipment', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ code: 'COMMON.SERVICE_UNAVAILABLE', message: 'Busy' }),
          })
        : route.continue(),
    );
    await dialog.getByLabel('Name *').fill('Projector');
    await dialog.getByRole('button', { name: 'Add Equipment' }).click();
    await expectToast(page, 'Error', 'Failed to add equipment', 'destructive');
    await dialog.getByLabel('Name *').focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focused(addFirst)).toBe(true);
  });

  it('explains a failed upload in a sentence, not a status and raw JSON, and keeps the spec toast', async () => {
    const building = await web.api<Building>('POST', '/api/buildings', {
      name: `Upload ${randomUUID().slice(0, 8)}`,
    });
    const room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'U-1',
      type: 'Classroom',
      floor: '1',
    });
    await page.route('**/api/objects/upload', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ code: 'COMMON.INTERNAL', message: 'Internal server error' }),
      }),
    );
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('button', { name: 'Change Room Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Room Photo' });
    await dialog
      .getByLabel('Choose image')
      .setInputFiles({ name: 'room.png', mimeType: 'image/png', buffer: pngImage(64, 48, [200, 90, 40]) });
    await dialog.getByRole('button', { name: 'Upload' }).click();

    await expectToast(page, 'Upload Error', 'Failed to upload image', 'destructive');
    const problem = dialog.getByRole('alert');
    expect(await problem.innerText()).toBe(
      'The image was not uploaded: the server could not store it. Try again in a moment; if it keeps failing, tell your administrator.',
    );
    await screenshot(page, 'field-upload-error', { keepToasts: true });
  });

  it('shows "Room not found" and "Building not found" with a way back, never a retry', async () => {
    for (const [address, heading] of [
      ['/rooms/not-a-uuid', 'Room not found'],
      [`/rooms/${randomUUID()}`, 'Room not found'],
      ['/buildings/not-a-uuid/rooms', 'Building not found'],
      [`/buildings/${randomUUID()}/rooms`, 'Building not found'],
      ['/buildings/not-a-uuid/labels', 'Building not found'],
    ]) {
      await page.goto(address);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.getByRole('button', { name: /Try again|Retry/ }).count()).toBe(0);
    }
    await page.goto('/rooms/not-a-uuid');
    await page.getByRole('heading', { name: 'Room not found' }).waitFor();
    await screenshot(page, 'field-room-not-found');
    await page.getByRole('link', { name: 'Back to Buildings' }).click();
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
  });
});
