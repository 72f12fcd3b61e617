import { type Building, type Equipment, mediaMessages, type Room } from '@cm/contracts';
import { type Locator, type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  holdRequests,
  signedInPhonePerTest,
  pngImage,
  screenshot,
  openSharedWebSystem,
  textsOf,
  type WebSystem,
} from './browser';

const photo = { name: 'room.png', mimeType: 'image/png', buffer: pngImage(640, 400, [200, 120, 40]) };
const wiring = { name: 'wiring.png', mimeType: 'image/png', buffer: pngImage(400, 600, [30, 140, 90]) };
const seating = { name: 'seating.png', mimeType: 'image/png', buffer: pngImage(500, 500, [90, 60, 180]) };

describe('web app: room detail and equipment', () => {
  let web: WebSystem;
  let page: Page;
  let building: Building;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const newRoom = (name: string, extra: Partial<Room> = {}) =>
    api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name,
      type: 'Classroom',
      floor: '1',
      capacity: 24,
      ...extra,
    });
  const equipmentCard = (name: string) => page.getByTestId('equipment-card').filter({ hasText: name });
  const imageLoaded = (img: Locator) =>
    img.evaluate((el) => {
      const image = el as unknown as { naturalWidth: number; decode(): Promise<void> };
      return image.decode().then(
        () => image.naturalWidth > 0,
        () => false,
      );
    });
  /** The dot's painted colour as "r, g, b". */
  const dotColour = (card: Locator) =>
    card.getByTestId('status-dot').evaluate((el) => {
      const css = (
        globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
      ).getComputedStyle(el).backgroundColor;
      return css;
    });

  beforeAll(async () => {
    web = await openSharedWebSystem();
    building = await api<Building>('POST', '/api/buildings', { name: 'Detail Hall' });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('shows the room with a drawn picture, its tiles, and uploads a photo, a wiring diagram and a seating layout', async () => {
    const room = await newRoom('101', { roomSize: '', isAdaAccessible: 1 });
    const roomPuts: string[] = [];
    const flow: string[] = [];
    page.on('request', (r) => {
      const { pathname, host } = new URL(r.url());
      if (pathname === `/api/rooms/${room.id}` && r.method() === 'PUT') roomPuts.push(r.postData() ?? '');
      if (pathname.startsWith('/assets/uppy-')) flow.push('load Uppy');
      else if (r.method() !== 'GET' && /^\/api\/(objects\/upload|room-images|rooms\/)/.test(pathname))
        flow.push(`${r.method()} ${pathname}`);
      // The store is reached through the gateway's /store, as with docker-compose.yml.
      else if (
        r.method() === 'PUT' &&
        host === new URL(web.system.url).host &&
        pathname.startsWith('/store/')
      )
        flow.push('PUT store');
    });
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: '101', level: 1 }).waitFor();
    expect(await page.getByText('Classroom', { exact: true }).first().isVisible()).toBe(true);
    expect(await page.getByRole('img', { name: 'No room photo yet' }).isVisible()).toBe(true);
    await page.getByText('No equipment added yet').waitFor();
    const tiles = await textsOf(page.locator('main .grid > *'));
    expect(tiles.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Capacity 24',
      'Floor 1',
      'Room Size Not specified',
      'ADA Accessible Yes',
      'Equipment 0',
      'Edit Room',
      'Upload Wiring',
      'Upload Seating',
    ]);
    await screenshot(page, 'room-detail-empty');
    // Uppy is loaded when the first upload starts, not with the app.
    expect(flow).toEqual([]);

    // A file that is not an image is refused with a reason before anything is sent.
    await page.getByRole('button', { name: 'Change Room Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Room Photo' });
    await dialog.getByLabel('Choose image').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not a picture'),
    });
    await dialog.getByText('"notes.txt" is not an image. Choose a photo or picture.').waitFor();
    expect(await dialog.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    // Text dressed as a PNG reaches the store, where media refuses it at registration.
    await dialog.getByLabel('Choose image').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('only words inside'),
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expectToast(page, 'Upload Error', 'Failed to upload image', 'destructive');
    await dialog.getByText(mediaMessages.notAnImage).waitFor();
    expect(flow).toEqual(['load Uppy', 'POST /api/objects/upload', 'PUT store', 'PUT /api/room-images']);
    expect(roomPuts).toEqual([]);
    flow.length = 0;
    await dialog.getByLabel('Choose image').setInputFiles(photo);
    await dialog.getByText(/^room\.png/).waitFor();
    await screenshot(page, 'room-photo-dialog');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expectToast(page, 'Success', 'Room photo uploaded successfully');
    await dialog.waitFor({ state: 'detached' });
    const hero = page.getByRole('img', { name: 'Photo of 101' });
    expect(await hero.getAttribute('src')).toMatch(/^\/objects\/uploads\//);
    expect(await imageLoaded(hero)).toBe(true);
    // Spec section 4: request a URL, PUT to the store, register, then attach only the photo.
    expect(flow).toEqual([
      'POST /api/objects/upload',
      'PUT store',
      'PUT /api/room-images',
      `PUT /api/rooms/${room.id}`,
    ]);
    expect(Object.keys(JSON.parse(roomPuts[0]))).toEqual(['imageUrl']);
    await screenshot(page, 'room-detail-photo');

    await page.getByRole('button', { name: 'Upload Wiring' }).click();
    const wiringDialog = page.getByRole('dialog', { name: 'Upload Wiring Diagram' });
    await wiringDialog.getByLabel('Choose image').setInputFiles(wiring);
    const held = await holdRequests(page, '**/api/objects/upload');
    try {
      await wiringDialog.getByRole('button', { name: 'Upload' }).click();
      await wiringDialog.getByRole('progressbar', { name: 'Upload progress' }).waitFor();
      expect(await wiringDialog.getByRole('button', { name: 'Uploading...' }).isDisabled()).toBe(true);
      await screenshot(page, 'room-wiring-uploading');
    } finally {
      held.release();
    }
    await expectToast(page, 'Success', 'Wiring diagram uploaded successfully');
    expect(Object.keys(JSON.parse(roomPuts[1]))).toEqual(['wiringDiagramUrl']);
    await page.getByRole('button', { name: 'View Wiring' }).click();
    const viewer = page.getByRole('dialog', { name: 'Wiring Diagram' });
    const diagram = viewer.getByRole('img', { name: 'Wiring diagram of 101' });
    expect(await imageLoaded(diagram)).toBe(true);
    const box = await viewer.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 390, height: 844 });
    await screenshot(page, 'room-wiring-viewer');
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Upload Seating' }).click();
    const seatingDialog = page.getByRole('dialog', { name: 'Upload Seating Layout' });
    await seatingDialog.getByLabel('Choose image').setInputFiles(seating);
    await seatingDialog.getByRole('button', { name: 'Upload' }).click();
    await expectToast(page, 'Success', 'Seating layout uploaded successfully');
    await page.getByRole('button', { name: 'View Seating' }).click();
    const seatingView = page.getByRole('dialog', { name: 'Seating Layout' });
    expect(await imageLoaded(seatingView.getByRole('img', { name: 'Seating layout of 101' }))).toBe(true);
    const facts = await textsOf(seatingView.locator('dl > div'));
    expect(facts.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Total Seats 24',
      'Equipment 0',
      'Room Size Not specified',
      'Layout Style Classroom',
      'ADA Accessible Yes',
    ]);
    await screenshot(page, 'room-seating-viewer');
    await seatingView.getByRole('button', { name: 'Close' }).click();

    const saved = await api<Room>('GET', `/api/rooms/${room.id}`);
    expect(saved).toMatchObject({ name: '101', type: 'Classroom', floor: '1', capacity: 24 });
    for (const key of ['imageUrl', 'wiringDiagramUrl', 'seatingLayoutUrl'] as const)
      expect(saved[key]).toMatch(/^\/objects\/uploads\//);
  });

  it('adds equipment from a preset, edits it in the details dialog and deletes it after confirmation', async () => {
    const room = await newRoom('102');
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('button', { name: 'Add First Equipment' }).click();
    const form = page.getByRole('dialog', { name: 'Add Equipment' });
    // Its submit is on screen at 390 × 844 without scrolling the long form: it sticks to the foot.
    const submit = form.getByRole('button', { name: 'Add Equipment' });
    const inView = async () => {
      const box = (await submit.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 844;
    };
    expect(await inView()).toBe(true);
    await form.getByLabel('Notes').scrollIntoViewIfNeeded();
    await form.getByLabel('Name *').scrollIntoViewIfNeeded();
    expect(await inView()).toBe(true);
    await screenshot(page, 'equipment-form-sticky-actions');
    await form.getByLabel('Preset Product').click();
    expect(await page.getByRole('option').count()).toBe(22);
    await page.getByRole('option', { name: 'Crestron 4-Series Control Processor (CP4N)' }).click();
    expect(await form.getByLabel('Name *').inputValue()).toBe('Crestron 4-Series Control Processor');
    expect(await form.getByLabel('Model').inputValue()).toBe('CP4N');
    expect(await form.getByLabel('Status').textContent()).toBe('Active');
    const notes = await form.getByLabel('Notes').boundingBox();
    expect(notes?.height).toBeGreaterThanOrEqual(100);
    await form.getByLabel('Serial Number').fill('SN-0042');
    await form.getByLabel('IP Address').fill('10.0.0.5-300');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await form.getByText('The end of an address range must be at most 255').waitFor();
    // Only the server knows which networks it may monitor: its reason shows under the field.
    await form.getByLabel('IP Address').fill('8.8.8.8');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await expectToast(page, 'Error', 'Failed to add equipment', 'destructive');
    await form
      .getByText('8.8.8.8 is outside the networks this system may monitor (127.0.0.0/8)', { exact: false })
      .waitFor();
    await form.getByLabel('IP Address').fill('127.0.0.70-73');
    await form.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Maintenance' }).click();
    await form.getByLabel('Notes').fill('Rack at the back, left');
    await screenshot(page, 'equipment-form');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment added successfully');
    await form.waitFor({ state: 'detached' });
    const card = equipmentCard('Crestron 4-Series Control Processor');
    await card.getByText('Maintenance').waitFor();
    expect(await page.locator('main .grid > *').nth(4).innerText()).toMatch(/Equipment\s+1/);
    const [added] = await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`);
    expect(added).toMatchObject({
      name: 'Crestron 4-Series Control Processor',
      model: 'CP4N',
      serialNumber: 'SN-0042',
      ipAddress: '127.0.0.70-73',
      status: 'maintenance',
      notes: 'Rack at the back, left',
    });

    await card.click();
    const details = page.getByRole('dialog', { name: 'Equipment Details' });
    await details.getByText('SN-0042').waitFor();
    await screenshot(page, 'equipment-details');
    await details.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Equipment' });
    expect(await edit.getByLabel('IP Address').inputValue()).toBe('127.0.0.70-73');
    await edit.getByLabel('Name *').fill('Control Processor');
    await edit.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Inactive' }).click();
    await edit.getByRole('button', { name: 'Save Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment updated successfully');
    await equipmentCard('Control Processor').getByText('Inactive').waitFor();
    expect(await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`)).toMatchObject([
      { id: added.id, name: 'Control Processor', status: 'inactive', model: 'CP4N', serialNumber: 'SN-0042' },
    ]);

    await equipmentCard('Control Processor').click();
    const dismissed = answerNextConfirm(page, false);
    await details.getByRole('button', { name: 'Delete' }).click();
    expect(await dismissed).toBe('Are you sure you want to delete this equipment?');
    expect(await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`)).toHaveLength(1);
    const accepted = answerNextConfirm(page, true);
    await details.getByRole('button', { name: 'Delete' }).click();
    await accepted;
    await expectToast(page, 'Success', 'Equipment deleted successfully');
    await page.getByText('No equipment added yet').waitFor();
    expect(await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`)).toEqual([]);
  });

  it('paints each status in its colour with its label', async () => {
    const room = await newRoom('103');
    for (const status of ['active', 'inactive', 'maintenance', 'partial'])
      await api('POST', `/api/rooms/${room.id}/equipment`, {
        roomId: room.id,
        name: `Device ${status}`,
        status,
      });
    await page.goto(`/rooms/${room.id}`);
    await equipmentCard('Device partial').waitFor();
    const seen: Record<string, [string, string]> = {};
    for (const status of ['active', 'inactive', 'maintenance', 'partial']) {
      const card = equipmentCard(`Device ${status}`);
      seen[status] = [(await card.innerText()).split('\n').at(-1)!.trim(), await dotColour(card)];
    }
    // Tailwind 4 paints in oklch; the hue tells green, red and yellow apart.
    expect(seen.active[0]).toBe('Active');
    expect(seen.inactive[0]).toBe('Inactive');
    expect(seen.maintenance[0]).toBe('Maintenance');
    expect(seen.partial[0]).toBe('Partial');
    expect(seen.maintenance[1]).toBe(seen.partial[1]);
    expect(new Set([seen.active[1], seen.inactive[1], seen.maintenance[1]]).size).toBe(3);
    await page.getByRole('heading', { name: 'Equipment', exact: true }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 400);
    await screenshot(page, 'equipment-statuses');
  });

  it('keeps connection details on the screen only: Add waits for a name, Enter adds, labels are trimmed', async () => {
    const room = await newRoom('104');
    await page.goto(`/rooms/${room.id}`);
    const name = page.getByLabel('New field name');
    const add = page.getByRole('button', { name: 'Add', exact: true });
    await name.waitFor();
    expect(await add.isDisabled()).toBe(true);
    await name.fill('   ');
    expect(await add.isDisabled()).toBe(true);
    await name.fill('  Projector HDMI  ');
    await add.click();
    await name.fill('Patch panel');
    await page.getByLabel('Field type').click();
    await page.getByRole('option', { name: 'Long text' }).click();
    await name.press('Enter');
    expect(await textsOf(page.getByTestId('connection-field').locator('label'))).toEqual([
      'Projector HDMI',
      'Patch panel',
    ]);
    expect(await page.getByLabel('Patch panel', { exact: true }).evaluate((el) => el.tagName)).toBe(
      'TEXTAREA',
    );
    await page.getByLabel('Projector HDMI', { exact: true }).fill('Wall plate 3, port B');
    await screenshot(page, 'connection-details');
    await page.reload();
    await name.waitFor();
    expect(await page.getByTestId('connection-field').count()).toBe(0);
  });
});
