import {
  type Building,
  type BuildingListItem,
  mediaMessages,
  type Room,
  type RoomListItem,
} from '@cm/contracts';
import { type Locator, type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  holdRequests,
  largeFile,
  signedInPhonePerTest,
  pngImage,
  removeLargeFile,
  screenshot,
  textsOf,
  startWebSystem,
  type WebSystem,
} from './browser';

const photo = { name: 'science-hall.png', mimeType: 'image/png', buffer: pngImage(480, 300, [40, 110, 200]) };

describe('web app: buildings and rooms', () => {
  let web: WebSystem;
  let page: Page;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);

  const room = (buildingId: string, name: string, floor: string, type = 'Classroom') =>
    api<Room>('POST', `/api/buildings/${buildingId}/rooms`, { name, type, floor, capacity: 20 });
  const path = () => new URL(page.url()).pathname;
  const card = (name: string) =>
    page.getByTestId('building-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  const roomCard = (name: string) =>
    page.getByTestId('room-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  /** The requests the page sent whose path matches, as "METHOD path". */
  const recordRequests = (pattern: RegExp) => {
    const seen: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pattern.test(pathname)) seen.push(`${r.method()} ${pathname}`);
    });
    return seen;
  };
  /** Whether the picture loaded and decoded (a broken one rejects decode()). */
  const imageLoaded = (img: Locator) =>
    img.evaluate((el) => {
      const image = el as unknown as { naturalWidth: number; decode(): Promise<void> };
      return image.decode().then(
        () => image.naturalWidth > 0,
        () => false,
      );
    });

  beforeAll(async () => {
    web = await startWebSystem();
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('shows four placeholder cards while the buildings load, then "No buildings found"', async () => {
    const held = await holdRequests(page, '**/api/buildings');
    try {
      await page.goto('/buildings');
      await page.getByTestId('building-skeleton').first().waitFor();
      expect(await page.getByTestId('building-skeleton').count()).toBe(4);
      await screenshot(page, 'buildings-loading');
    } finally {
      held.release();
    }
    await page.getByText('No buildings found').waitFor();
    expect(await page.getByTestId('building-skeleton').count()).toBe(0);
    await screenshot(page, 'buildings-empty');
  });

  it('adds a building with a photo, edits it, refuses a broken upload without saving, and deletes it', async () => {
    const writes = recordRequests(/^\/api\/(buildings|upload)/);
    await page.goto('/buildings');
    await page.getByRole('button', { name: 'Add building' }).click();
    await page.getByRole('heading', { name: 'Add Building' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Campus Buildings' }).count()).toBe(0);
    expect(await page.getByText('Tap to upload building photo').isVisible()).toBe(true);
    await screenshot(page, 'building-form-add');

    await page.getByRole('button', { name: 'Add Building' }).click();
    await page.getByText('Building name is required').waitFor();
    expect(writes.filter((w) => !w.startsWith('GET'))).toEqual([]);

    await page.getByLabel('Building Name *').fill('Science Hall');
    await page.getByLabel('Description').fill('North campus, teaching labs and lecture rooms');
    await page.getByLabel('Building Photo').setInputFiles(photo);
    await page.getByText('science-hall.png').waitFor();
    await screenshot(page, 'building-form-photo');
    await page.getByRole('button', { name: 'Add Building' }).click();
    await expectToast(page, 'Success', 'Building added successfully');
    await card('Science Hall').waitFor();
    // Upload first, then save with the answered url.
    expect(writes.filter((w) => !w.startsWith('GET'))).toEqual(['POST /api/upload', 'POST /api/buildings']);
    const [created] = await api<BuildingListItem[]>('GET', '/api/buildings');
    expect(created).toMatchObject({
      name: 'Science Hall',
      description: 'North campus, teaching labs and lecture rooms',
      imageUrl: expect.stringMatching(/^\/objects\/uploads\//),
      roomCount: 0,
    });
    const img = card('Science Hall').locator('img');
    expect(await img.getAttribute('src')).toBe(created.imageUrl);
    await img.waitFor();
    expect(await imageLoaded(img)).toBe(true);
    expect(await card('Science Hall').getByText('0 Rooms').isVisible()).toBe(true);
    await screenshot(page, 'buildings-list');

    // Edit: the form says so, is filled in, and keeps the photo when none is picked.
    await page.getByRole('button', { name: 'Edit Science Hall' }).click();
    await page.getByRole('heading', { name: 'Edit Building' }).waitFor();
    expect(await page.getByLabel('Building Name *').inputValue()).toBe('Science Hall');
    await page.getByLabel('Building Name *').fill('Science Hall North');
    await screenshot(page, 'building-form-edit');
    await page.getByRole('button', { name: 'Save Building' }).click();
    await expectToast(page, 'Success', 'Building updated successfully');
    await card('Science Hall North').waitFor();
    expect(await api<Building>('GET', `/api/buildings/${created.id}`)).toMatchObject({
      name: 'Science Hall North',
      imageUrl: created.imageUrl,
    });

    // A file that calls itself a PNG but is not one: the server refuses it, nothing is saved.
    await page.getByRole('button', { name: 'Edit Science Hall North' }).click();
    await page.getByLabel('Building Name *').fill('Renamed By Mistake');
    await page.getByLabel('Building Photo').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('these are meeting notes, not a picture'),
    });
    const before = writes.length;
    await page.getByRole('button', { name: 'Save Building' }).click();
    await expectToast(page, 'Upload Error', 'Failed to upload image', 'destructive');
    await page.getByText(mediaMessages.notAnImage).waitFor();
    expect(writes.slice(before)).toEqual(['POST /api/upload']);
    expect(await page.getByRole('heading', { name: 'Edit Building' }).isVisible()).toBe(true);
    expect((await api<Building>('GET', `/api/buildings/${created.id}`)).name).toBe('Science Hall North');
    await screenshot(page, 'building-upload-error', { keepToasts: true });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await card('Science Hall North').waitFor();

    // Delete asks first; saying no keeps it.
    const confirmText =
      'Are you sure you want to delete Science Hall North? This will also delete all rooms and equipment in this building.';
    let asked = answerNextConfirm(page, false);
    await page.getByRole('button', { name: 'Delete Science Hall North' }).click();
    expect(await asked).toBe(confirmText);
    expect(await card('Science Hall North').isVisible()).toBe(true);
    asked = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Delete Science Hall North' }).click();
    expect(await asked).toBe(confirmText);
    await expectToast(page, 'Success', 'Building deleted successfully');
    await card('Science Hall North').waitFor({ state: 'detached' });
    expect(await api<BuildingListItem[]>('GET', '/api/buildings')).toEqual([]);
  });

  it('says when a delete failed, searches by name or description, and counts rooms', async () => {
    const library = await api<Building>('POST', '/api/buildings', {
      name: 'Library',
      description: 'Quiet study floors',
    });
    const arts = await api<Building>('POST', '/api/buildings', {
      name: 'Arts Center',
      description: 'Studios',
    });
    await room(library.id, 'Reading Room', '1');
    await room(arts.id, 'Studio A', '1');
    await room(arts.id, 'Studio B', '2');
    await page.goto('/buildings');
    await card('Library').getByText('1 Room', { exact: true }).waitFor();
    await card('Arts Center').getByText('2 Rooms', { exact: true }).waitFor();

    const search = page.getByPlaceholder('Search buildings...');
    await search.fill('QUIET');
    await card('Arts Center').waitFor({ state: 'detached' });
    expect(await textsOf(page.getByTestId('building-card').getByRole('heading'))).toEqual(['Library']);
    await search.fill('arts');
    expect(await textsOf(page.getByTestId('building-card').getByRole('heading'))).toEqual(['Arts Center']);
    await search.fill('gymnasium');
    await page.getByText('No buildings found').waitFor();
    await search.fill('');

    // The server cannot delete it: the delete fails and says so. (A delete made elsewhere would not
    // do: the live stream takes the card off the screen before anyone could press it.)
    await page.route(`**/api/buildings/${arts.id}`, (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ code: 'COMMON.SERVICE_UNAVAILABLE', message: 'Busy' }),
          })
        : route.continue(),
    );
    const asked = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Delete Arts Center' }).click();
    await asked;
    await expectToast(page, 'Error', 'Failed to delete building', 'destructive');
    await page.unroute(`**/api/buildings/${arts.id}`);
    await api('DELETE', `/api/buildings/${arts.id}`);
    await api('DELETE', `/api/buildings/${library.id}`);
  });

  it('groups rooms by floor in the spec order, with counts, tags, a skeleton and an empty state', async () => {
    const hall = await api<Building>('POST', '/api/buildings', { name: 'Tower' });
    for (const [name, floor, type] of [
      ['201', '2', 'Classroom'],
      ['Loading Dock', 'LL', 'Storage'],
      ['1001', '10', 'Lecture Hall'],
      ['Boiler', 'B1', 'Storage'],
      ['Gallery', 'Mezzanine', 'Study Room'],
      ['102', '1', 'Computer Lab'],
      ['101', '1', 'Chemistry Lab'],
      ['Vault', 'SUB', 'Storage'],
      ['Archive', 'B2', 'Library'],
      ['Pit', 'SB', 'Storage'],
      ['Deep Store', 'B3', 'Storage'],
      ['Lantern', 'Attic', 'Office'],
    ])
      await room(hall.id, name, floor, type);

    const held = await holdRequests(page, `**/api/buildings/${hall.id}/rooms`);
    try {
      await page.goto(`/buildings/${hall.id}/rooms`);
      await page.getByTestId('room-skeleton').first().waitFor();
      await screenshot(page, 'rooms-loading');
    } finally {
      held.release();
    }
    await page.getByRole('heading', { name: 'Tower Rooms' }).waitFor();
    expect(await textsOf(page.getByRole('region').getByRole('heading', { level: 2 }))).toEqual([
      'Floor LL',
      'Floor B3',
      'Floor B2',
      'Floor B1',
      'Floor SB',
      'Floor SUB',
      'Floor 1',
      'Floor 2',
      'Floor 10',
      'Floor Attic',
      'Floor Mezzanine',
    ]);
    const floor1 = page.getByRole('region', { name: 'Floor 1', exact: true });
    expect(await floor1.getByText('2 rooms').isVisible()).toBe(true);
    expect(await textsOf(floor1.getByRole('heading', { level: 3 }))).toEqual(['101', '102']);
    expect(
      await page.getByRole('region', { name: 'Floor 2', exact: true }).getByText('1 room').isVisible(),
    ).toBe(true);
    expect(await textsOf(roomCard('102').locator('span.rounded-full'))).toEqual([
      'Computers',
      'Lab Equipment',
    ]);
    expect(await textsOf(roomCard('101').locator('span.rounded-full'))).toEqual(['Lab Equipment']);
    expect(await roomCard('201').locator('span.rounded-full').count()).toBe(0);
    expect(await roomCard('201').getByText('Classroom · Floor 2').isVisible()).toBe(true);
    await screenshot(page, 'rooms-by-floor');
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    await screenshot(page, 'rooms-by-floor-end');

    await roomCard('201').getByRole('link').click();
    await page.waitForURL(/\/rooms\/[0-9a-f-]{36}$/);

    const empty = await api<Building>('POST', '/api/buildings', { name: 'Annex' });
    await page.goto(`/buildings/${empty.id}/rooms`);
    await page.getByText('No rooms found').waitFor();
    await screenshot(page, 'rooms-empty');

    await page.goto('/buildings/00000000-0000-4000-8000-000000000000/rooms');
    await page.getByRole('heading', { name: 'Building not found' }).waitFor();
  });

  it('creates, edits and deletes a room through the room form, refreshing the lists', async () => {
    const hall = await api<Building>('POST', '/api/buildings', { name: 'Engineering' });
    await page.goto('/buildings');
    await card('Engineering').getByText('0 Rooms').waitFor();
    await card('Engineering').getByRole('link').click();
    await page.getByText('No rooms found').waitFor();

    await page.getByRole('button', { name: 'Add room' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Room' });
    await dialog.waitFor();
    // Defaults of spec section 2.
    expect(await dialog.getByLabel('Room Name *').inputValue()).toBe('');
    expect(await dialog.getByLabel('Floor *').inputValue()).toBe('');
    expect(await dialog.getByLabel('Capacity').inputValue()).toBe('');
    expect(await dialog.getByLabel('Capacity').getAttribute('placeholder')).toBe('24');
    expect(await dialog.getByLabel('Capacity').getAttribute('min')).toBe('0');
    expect(await dialog.getByRole('switch', { name: 'ADA Accessible' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await screenshot(page, 'room-form-create');

    await dialog.getByRole('button', { name: 'Create Room' }).click();
    await dialog.getByText('Room name is required').waitFor();
    expect(await dialog.getByText('Floor is required').isVisible()).toBe(true);
    expect(await dialog.getByText('Choose a room type').isVisible()).toBe(true);

    await dialog.getByLabel('Room Type *').click();
    expect(await textsOf(page.getByRole('option'))).toHaveLength(13);
    await page.getByRole('option', { name: 'Computer Lab' }).click();
    expect(await dialog.getByText('Choose a room type').count()).toBe(0);
    await dialog.getByLabel('Room Name *').fill('E-101');
    await dialog.getByLabel('Floor *').fill('1');
    await dialog.getByLabel('Capacity').fill('30');
    await dialog.getByLabel('Room Size').fill('30 x 40 ft');
    await dialog.getByRole('switch', { name: 'ADA Accessible' }).click();

    // The photo goes through the upload dialog: picked, refused when too large, then uploaded.
    await dialog.getByRole('button', { name: 'Upload Room Photo' }).click();
    const upload = page.getByRole('dialog', { name: 'Upload Room Photo' });
    await upload.waitFor();
    const huge = largeFile('huge.png', 10_485_761);
    await upload.getByLabel('Choose image').setInputFiles(huge);
    await upload.getByText(/the limit is 10\.0 MB/).waitFor();
    removeLargeFile(huge);
    expect(await upload.getByRole('button', { name: 'Upload' }).isDisabled()).toBe(true);
    await upload.getByLabel('Choose image').setInputFiles({ ...photo, name: 'lab.png' });
    await upload.getByText(/^lab\.png/).waitFor();
    await screenshot(page, 'room-image-upload-dialog');
    await upload.getByRole('button', { name: 'Upload' }).click();
    await upload.waitFor({ state: 'detached' });
    const thumbnail = dialog.getByRole('img', { name: 'Room Photo' });
    expect(await thumbnail.getAttribute('src')).toMatch(/^\/objects\/uploads\//);
    expect(await imageLoaded(thumbnail)).toBe(true);
    await screenshot(page, 'room-form-filled');

    await dialog.getByRole('button', { name: 'Create Room' }).click();
    await expectToast(page, 'Success', 'Room created successfully');
    await dialog.waitFor({ state: 'detached' });
    await roomCard('E-101').waitFor();
    expect(await roomCard('E-101').getByText('Computer Lab · Floor 1').isVisible()).toBe(true);
    expect(await roomCard('E-101').getByText('Capacity 30').isVisible()).toBe(true);
    expect(await roomCard('E-101').getByText('0 Equipment').isVisible()).toBe(true);
    const [created] = await api<RoomListItem[]>('GET', `/api/buildings/${hall.id}/rooms`);
    expect(created).toMatchObject({
      name: 'E-101',
      type: 'Computer Lab',
      floor: '1',
      capacity: 30,
      roomSize: '30 x 40 ft',
      isAdaAccessible: 0,
      imageUrl: expect.stringMatching(/^\/objects\/uploads\//),
      wiringDiagramUrl: null,
      seatingLayoutUrl: null,
    });

    // Edit mode says so; while it saves the button reads "Updating Room...".
    await page.getByRole('button', { name: 'Edit E-101' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Room' });
    await edit.waitFor();
    expect(await edit.getByLabel('Room Name *').inputValue()).toBe('E-101');
    expect(await edit.getByLabel('Capacity').inputValue()).toBe('30');
    expect(await edit.getByRole('switch', { name: 'ADA Accessible' }).getAttribute('aria-checked')).toBe(
      'false',
    );
    await screenshot(page, 'room-form-edit');
    await edit.getByLabel('Floor *').fill('LL');
    await edit.getByLabel('Capacity').fill('');
    const held = await holdRequests(page, `**/api/rooms/${created.id}`);
    try {
      await edit.getByRole('button', { name: 'Update Room' }).click();
      await edit.getByRole('button', { name: 'Updating Room...' }).waitFor();
    } finally {
      held.release();
    }
    await expectToast(page, 'Success', 'Room updated successfully');
    await page.getByRole('region', { name: 'Floor LL', exact: true }).getByText('E-101').waitFor();
    expect(await page.getByRole('region', { name: 'Floor 1', exact: true }).count()).toBe(0);
    expect(await api<Room>('GET', `/api/rooms/${created.id}`)).toMatchObject({
      floor: 'LL',
      capacity: 0, // an emptied capacity is sent as 0
      imageUrl: created.imageUrl,
    });

    // The buildings list counts the new room.
    await page.getByRole('link', { name: 'Back' }).click();
    await card('Engineering').getByText('1 Room', { exact: true }).waitFor();
    await card('Engineering').getByRole('link').click();

    const asked = answerNextConfirm(page, true);
    await roomCard('E-101').getByRole('button', { name: 'Delete E-101' }).click();
    expect(await asked).toBe(
      'Are you sure you want to delete E-101? This will also delete all equipment in this room.',
    );
    await expectToast(page, 'Success', 'Room deleted successfully');
    await page.getByText('No rooms found').waitFor();
    await page.getByRole('link', { name: 'Back' }).click();
    await card('Engineering').getByText('0 Rooms').waitFor();
    expect(path()).toBe('/buildings');
  });

  it('counts a room deleted elsewhere meanwhile as deleted, and says so when a room cannot be saved', async () => {
    const hall = await api<Building>('POST', '/api/buildings', { name: 'Old Wing' });
    const doomed = await room(hall.id, 'W-1', '1');
    // A screen that has not heard of the changes yet: live updates would take the room away first.
    const live = await holdRequests(page, '**/api/events');
    try {
      await page.goto(`/buildings/${hall.id}/rooms`);
      await roomCard('W-1').waitFor();

      await api('DELETE', `/api/rooms/${doomed.id}`);
      const asked = answerNextConfirm(page, true);
      await page.getByRole('button', { name: 'Delete W-1' }).click();
      await asked;
      // What the person wanted is so already: no error to act on (issue 37's queued deletes alike).
      await expectToast(page, 'Success', 'Room deleted successfully');
      await roomCard('W-1').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Add room' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Room' });
      await dialog.getByLabel('Room Name *').fill('W-2');
      await dialog.getByLabel('Room Type *').click();
      await page.getByRole('option', { name: 'Office' }).click();
      await dialog.getByLabel('Floor *').fill('2');
      await api('DELETE', `/api/buildings/${hall.id}`);
      await dialog.getByRole('button', { name: 'Create Room' }).click();
      await expectToast(page, 'Error', 'Failed to create room', 'destructive');
      expect(await dialog.isVisible()).toBe(true);
    } finally {
      live.release();
    }
  });
});
