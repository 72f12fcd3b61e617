import { readFileSync } from 'node:fs';
import { type Building, type Equipment, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type Locator, type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  onSharedSystem,
  screenshot,
  textsOf,
  uploadedPicture,
  type WebSystem,
} from './browser';

/** Issue 22: what a technician on a phone expects to see and change, and the small frictions. */
describe('web app in the field: limits, equipment type, room facts, pictures, going back', () => {
  let web: WebSystem;
  let page: Page;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const newBuilding = (name: string, extra: Partial<Building> = {}) =>
    api<Building>('POST', '/api/buildings', { name, ...extra });
  const newRoom = (building: Building, name: string, extra: Partial<Room> = {}) =>
    api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name,
      type: 'Classroom',
      floor: '1',
      capacity: 24,
      ...extra,
    });
  const tiles = async () =>
    (await textsOf(page.locator('main .grid > *'))).map((t) => t.replace(/\s+/g, ' '));
  /** The control a tap at the middle of `target` reaches (the target itself, or what covers it). */
  const tapReaches = (target: Locator) =>
    target.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const doc = el.ownerDocument as unknown as { elementFromPoint(x: number, y: number): unknown };
      const hit = doc.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit === el || el.contains(hit as typeof el);
    });

  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );

  it('fills the equipment type from a preset product, lets a person change it, and the report carries it', async () => {
    const building = await newBuilding('Type Hall');
    const room = await newRoom(building, 'T1');
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('button', { name: 'Add First Equipment' }).click();
    const form = page.getByRole('dialog', { name: 'Add Equipment' });
    expect(await form.getByLabel('Type').inputValue()).toBe('');
    await form.getByLabel('Preset Product').click();
    await page.getByRole('option', { name: 'Crestron 4-Series Control Processor (CP4N)' }).click();
    // The catalogue's category of that product.
    expect(await form.getByLabel('Type').inputValue()).toBe('Control');
    expect(await form.getByLabel('Name *').inputValue()).toBe('Crestron 4-Series Control Processor');
    await form.getByLabel('Name *').fill('Type Hall Processor');
    await screenshot(page, 'field-equipment-type-from-preset');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment added successfully');
    const [added] = await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`);
    expect(added).toMatchObject({ name: 'Type Hall Processor', type: 'Control', model: 'CP4N' });

    await page.getByTestId('equipment-card').filter({ hasText: 'Type Hall Processor' }).click();
    const details = page.getByRole('dialog', { name: 'Equipment Details' });
    await details.getByText('Control', { exact: true }).waitFor();
    await details.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Equipment' });
    expect(await edit.getByLabel('Type').inputValue()).toBe('Control');
    await edit.getByLabel('Type').fill('Room Control');
    await edit.getByRole('button', { name: 'Save Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment updated successfully');
    expect(await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`)).toMatchObject([
      { id: added.id, type: 'Room Control' },
    ]);

    await page.goto('/reports');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Uptime Report' }).click(),
    ]);
    const rows = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    expect(rows[0][3]).toBe('Equipment Type');
    expect(rows.find((r) => r[2] === 'Type Hall Processor')?.slice(0, 4)).toEqual([
      'Type Hall',
      'T1',
      'Type Hall Processor',
      'Room Control',
    ]);
  });

  it('counts characters near a limit, keeps a pasted text whole, and says on save what is too long', async () => {
    await page.goto('/buildings');
    await page.getByRole('button', { name: 'Add building' }).click();
    const name = page.getByLabel('Building Name *');
    const count = page.locator('[data-slot="length-count"]');
    await name.fill('Limits Hall');
    expect(await count.count()).toBe(0);
    // A name pasted from elsewhere, longer than the 120 the contract allows: nothing is cut.
    const pasted = `Limits Hall ${'x'.repeat(118)}`;
    await name.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(pasted);
    expect(await name.inputValue()).toBe(pasted);
    expect(await count.innerText()).toMatch(/^130 \/ 120/);
    expect(await count.getAttribute('class')).toContain('text-red-600');
    await screenshot(page, 'field-length-over');
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
    await page.getByRole('button', { name: 'Add Building' }).click();
    await page.getByText('Building name must be at most 120 characters').waitFor();
    expect(posts).toEqual([]);
    await name.fill('Limits Hall');
    await page.getByRole('button', { name: 'Add Building' }).click();
    await expectToast(page, 'Success', 'Building added successfully');

    // Floor's limit is 32: the count shows from 26 (80 %), before the save would refuse it.
    const [building] = (await api<Building[]>('GET', '/api/buildings')).filter(
      (b) => b.name === 'Limits Hall',
    );
    await page.goto(`/buildings/${building.id}/rooms`);
    await page.getByRole('button', { name: 'Add room' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Room' });
    const floor = dialog.getByLabel('Floor *');
    await floor.fill('F'.repeat(25));
    expect(await dialog.locator('[data-slot="length-count"]').count()).toBe(0);
    await floor.fill('F'.repeat(26));
    expect(await dialog.locator('[data-slot="length-count"]').innerText()).toMatch(/^26 \/ 32/);
    await floor.fill('F'.repeat(40));
    expect(await floor.inputValue()).toHaveLength(40);
    await dialog.getByLabel('Room Name *').fill('L1');
    await dialog.getByLabel('Room Type *').click();
    await page.getByRole('option', { name: 'Office' }).click();
    await dialog.getByRole('button', { name: 'Create Room' }).click();
    await dialog.getByText('Floor must be at most 32 characters').waitFor();
    await screenshot(page, 'field-length-floor');
  });

  it('shows the room facts beside its capacity and edits the room from its own screen', async () => {
    const building = await newBuilding('Facts Hall');
    const room = await newRoom(building, 'F1', {
      floor: '2',
      capacity: 30,
      roomSize: '30 x 40 ft',
      isAdaAccessible: 0,
    });
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: 'F1', level: 1 }).waitFor();
    // The equipment count comes with the room's equipment list, which may load after the room.
    await page.locator('main .grid > *', { hasText: /^Equipment\s*0$/ }).waitFor();
    expect((await tiles()).slice(0, 6)).toEqual([
      'Capacity 30',
      'Floor 2',
      'Room Size 30 x 40 ft',
      'ADA Accessible No',
      'Equipment 0',
      'Edit Room',
    ]);
    await screenshot(page, 'field-room-facts');

    await page.getByRole('button', { name: 'Edit Room' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Room' });
    expect(await dialog.getByLabel('Floor *').inputValue()).toBe('2');
    await dialog.getByLabel('Floor *').fill('LL');
    await dialog.getByRole('switch', { name: 'ADA Accessible' }).click();
    await screenshot(page, 'field-room-edit');
    await dialog.getByRole('button', { name: 'Update Room' }).click();
    await expectToast(page, 'Success', 'Room updated successfully');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('ADA Accessible').locator('..').getByText('Yes').waitFor();
    expect((await tiles()).slice(0, 4)).toEqual([
      'Capacity 30',
      'Floor LL',
      'Room Size 30 x 40 ft',
      'ADA Accessible Yes',
    ]);
    expect(await api<Room>('GET', `/api/rooms/${room.id}`)).toMatchObject({
      floor: 'LL',
      isAdaAccessible: 1,
      roomSize: '30 x 40 ft',
      capacity: 30,
    });
  });

  it('removes a room photo, wiring diagram, seating layout and building photo after confirmation', async () => {
    const building = await newBuilding('Pictures Hall', {
      imageUrl: await uploadedPicture(web, [40, 90, 160]),
    });
    const room = await newRoom(building, 'P1', {
      imageUrl: await uploadedPicture(web, [200, 120, 40]),
      wiringDiagramUrl: await uploadedPicture(web, [30, 140, 90]),
      seatingLayoutUrl: await uploadedPicture(web, [90, 60, 180]),
    });
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('img', { name: 'Photo of P1' }).waitFor();
    await screenshot(page, 'field-room-pictures');

    const dismissed = answerNextConfirm(page, false);
    await page.getByRole('button', { name: 'Remove Room Photo' }).click();
    expect(await dismissed).toBe('Remove the room photo of P1?');
    expect(await page.getByRole('img', { name: 'Photo of P1' }).isVisible()).toBe(true);
    expect((await api<Room>('GET', `/api/rooms/${room.id}`)).imageUrl).not.toBeNull();
    const accepted = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Remove Room Photo' }).click();
    await accepted;
    await expectToast(page, 'Success', 'Room photo removed');
    await page.getByRole('img', { name: 'No room photo yet' }).waitFor();

    for (const [view, dialogName, remove, what, tile] of [
      ['View Wiring', 'Wiring Diagram', 'Remove Wiring Diagram', 'Wiring diagram', 'Upload Wiring'],
      ['View Seating', 'Seating Layout', 'Remove Seating Layout', 'Seating layout', 'Upload Seating'],
    ] as const) {
      await page.getByRole('button', { name: view }).click();
      const viewer = page.getByRole('dialog', { name: dialogName });
      await viewer.waitFor();
      await screenshot(page, `field-${dialogName.toLowerCase().replace(' ', '-')}-remove`);
      const sure = answerNextConfirm(page, true);
      await viewer.getByRole('button', { name: remove }).click();
      expect(await sure).toBe(`Remove the ${what.toLowerCase()} of P1?`);
      await expectToast(page, 'Success', `${what} removed`);
      await viewer.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: tile }).waitFor();
    }
    expect(await api<Room>('GET', `/api/rooms/${room.id}`)).toMatchObject({
      imageUrl: null,
      wiringDiagramUrl: null,
      seatingLayoutUrl: null,
      floor: '1',
      capacity: 24,
    });

    await page.goto('/buildings');
    await page.getByLabel('Search buildings').fill('Pictures Hall');
    await page.getByRole('button', { name: 'Edit Pictures Hall' }).click();
    await page.getByRole('img', { name: 'Pictures Hall (current)' }).waitFor();
    const sure = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Remove Photo' }).click();
    await sure;
    await page.getByText('Tap to upload building photo').waitFor();
    await page.getByRole('button', { name: 'Save Building' }).click();
    await expectToast(page, 'Success', 'Building updated successfully');
    expect((await api<Building>('GET', `/api/buildings/${building.id}`)).imageUrl).toBeNull();
  });

  it('going back to the buildings finds the same search and the same place in the list', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `Back Hall ${String(i + 1).padStart(2, '0')}`);
    for (const name of names) await newBuilding(name, { description: 'Kept in view when coming back' });
    await page.goto('/buildings');
    await page.getByLabel('Search buildings').fill('Back Hall');
    const cards = page.getByTestId('building-card');
    await cards.nth(9).waitFor();
    expect(await cards.count()).toBe(10);
    const last = page.getByRole('link', { name: /Back Hall 10/ });
    await last.scrollIntoViewIfNeeded();
    expect(await page.evaluate<number>('window.scrollY')).toBeGreaterThan(500);
    // Where the card stands on the screen is what the user finds again. The page's offset is not:
    // the problems banner above the list may come or go with the next read of the problems (the
    // system is shared, and its monitor runs), and the browser then moves the offset to keep the
    // list in place.
    const placed = (await last.boundingBox())!.y;
    const inPlace = () =>
      eventually(async () => expect(Math.abs((await last.boundingBox())!.y - placed)).toBeLessThanOrEqual(2));
    await last.click();
    await page.getByRole('heading', { name: 'Back Hall 10 Rooms' }).waitFor();

    // The header's Back arrow.
    await page.getByRole('link', { name: 'Back' }).click();
    await cards.nth(9).waitFor();
    expect(await page.getByLabel('Search buildings').inputValue()).toBe('Back Hall');
    expect(await cards.count()).toBe(10);
    await inPlace();
    await screenshot(page, 'field-back-keeps-list');

    // The browser's (or phone's) back.
    await page.getByRole('link', { name: /Back Hall 09/ }).click();
    await page.getByRole('heading', { name: 'Back Hall 09 Rooms' }).waitFor();
    await page.goBack();
    await cards.nth(9).waitFor();
    expect(await page.getByLabel('Search buildings').inputValue()).toBe('Back Hall');
    await inPlace();
  });

  it('keeps the last card’s buttons clear of a toast, and the header readable with 44 px breadcrumb links', async () => {
    const building = await newBuilding('Toast Hall');
    for (const name of ['A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7', 'A8'])
      await newRoom(building, name, { floor: '1' });
    await page.goto(`/buildings/${building.id}/rooms`);
    const cards = page.getByTestId('room-card');
    await cards.nth(7).waitFor();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    // Deleting the last room while at the bottom: the toast comes up where its buttons were.
    const sure = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Delete A8' }).click();
    await sure;
    await expectToast(page, 'Success', 'Room deleted successfully');
    await cards.nth(6).waitFor();
    expect(await cards.count()).toBe(7);
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    // At the bottom of the page the whole last card is above the toast, not only its buttons.
    const toast = await page.locator('[data-slot="toast"][data-state="open"]').boundingBox();
    const lastCard = await cards.nth(6).boundingBox();
    expect(lastCard!.y + lastCard!.height).toBeLessThanOrEqual(toast!.y);
    for (const name of ['Edit A7', 'Delete A7']) {
      const button = page.getByRole('button', { name });
      expect(await tapReaches(button)).toBe(true);
    }
    await screenshot(page, 'field-toast-clear-of-buttons', { keepToasts: true });

    const room = await api<Room[]>('GET', `/api/buildings/${building.id}/rooms`);
    await page.goto(`/rooms/${room[0].id}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link');
    expect(await textsOf(crumbs)).toEqual(['Buildings', 'Toast Hall']);
    for (const crumb of await crumbs.all()) {
      const box = await crumb.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(box?.width).toBeGreaterThanOrEqual(44);
    }

    await page.setViewportSize({ width: 320, height: 640 });
    const title = page.locator('header').getByText('Classroom Monitor');
    const cut = await title.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(false);
    expect(await page.getByRole('button', { name: 'Sign Out' }).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: 'Back' }).isVisible()).toBe(true);
    await screenshot(page, 'field-header-320');
  });
});
