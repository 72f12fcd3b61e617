import { randomUUID } from 'node:crypto';
import { type Building, type Equipment, mediaMessages, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  openSharedWebSystem,
  openSignedInPhone,
  type Phone,
  pngImage,
  screenshot,
  uploadedPicture,
  type WebSystem,
} from './browser';
import { sessionHeaders, signIn } from './session';

/** What the test reads of the page's window (the test's TypeScript has no DOM types). */
interface ServiceWorkerWindow {
  navigator: { serviceWorker: { controller: unknown } };
}

/**
 * Issue 37, a technician's phone without signal: edits made offline wait on the phone and reach
 * the server once each when it is back; an edit of a record changed elsewhere meanwhile shows both
 * versions; a session that ends mid-edit loses no typed word. At 390×844.
 */
describe('web app: offline edits, conflicts and drafts', () => {
  let web: WebSystem;
  let phone: Phone;
  let page: Page;

  beforeAll(async () => {
    web = await openSharedWebSystem();
  });
  afterAll(() => web?.close());
  afterEach(async () => {
    await phone?.context.close();
    expect(phone.problems).toEqual([]);
  });

  /** A phone with a session of its own (ending it leaves the administrator's alone). */
  const openPhone = async (options: { serviceWorkers?: 'allow' | 'block' } = {}) => {
    const { username, password } = web.system.admin;
    const cookie = await signIn(web.system.url, username, password);
    phone = await openSignedInPhone(web.browser, web.system.url, cookie, options);
    page = phone.page;
    return cookie;
  };

  /** Two buildings of this test, one with a room, as the phone saw them before losing signal. */
  const arrange = async () => {
    const tag = randomUUID().slice(0, 8);
    const north = await web.api<Building>('POST', '/api/buildings', {
      name: `North ${tag}`,
      description: 'Old',
    });
    const south = await web.api<Building>('POST', '/api/buildings', { name: `South ${tag}` });
    const room = await web.api<Room>('POST', `/api/buildings/${north.id}/rooms`, {
      name: 'B-01',
      type: 'Classroom',
      floor: 'B1',
    });
    return { tag, north, south, room };
  };

  const waiting = (count: number) =>
    page.getByRole('button', { name: `${count} ${count === 1 ? 'change' : 'changes'} waiting` });
  const offlineBanner = () => page.getByRole('status').filter({ hasText: 'You are offline.' });
  /**
   * Loses the signal once the code the screen fetches after its first draw (its dialogs, and the
   * forms they fetch in turn) has arrived, as on a phone that stayed on the screen a moment: these
   * tests block service workers, so nothing else would bring that code offline.
   */
  const goOffline = async () => {
    const fetchedCode = () =>
      page.evaluate<number>(
        `performance.getEntriesByType('resource').filter((e) => e.name.includes('/assets/')).length`,
      );
    for (let last = -1, now = await fetchedCode(); now !== last; last = now, now = await fetchedCode())
      await page.waitForTimeout(1000);
    await page.context().setOffline(true);
    await offlineBanner().waitFor();
  };
  const buildingsNamed = async (name: string) =>
    (await web.api<Building[]>('GET', '/api/buildings')).filter((b) => b.name === name);

  const openBuildings = async (tag: string) => {
    await page.goto('/buildings');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    await page.getByPlaceholder('Search buildings...').fill(tag);
  };

  /** Adds a building, edits another's description and renames a room, all without a network. */
  const threeEditsOffline = async ({ tag, north, room }: Awaited<ReturnType<typeof arrange>>) => {
    // The rooms screen once online, as after any earlier visit; then the list, where the walk starts.
    await page.goto(`/buildings/${north.id}/rooms`);
    await page.getByRole('heading', { name: 'B-01' }).waitFor();
    await openBuildings(tag);
    await page.getByRole('heading', { name: north.name, exact: true }).waitFor();
    await goOffline();
    expect(await page.getByText(/^Offline — data from /).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Add building' }).click();
    await page.getByLabel('Building Name *').fill(`Annex ${tag}`);
    await page.getByRole('button', { name: 'Add Building' }).click();
    await expectToast(page, 'Saved on this phone', 'It will be sent when the connection is back.');
    await waiting(1).waitFor();
    // Not on the server yet, but in the list: a card of what was typed, marked as waiting.
    await page
      .getByTestId('pending-create')
      .filter({ hasText: `Annex ${tag}` })
      .getByText('Pending add')
      .waitFor();

    await page.getByRole('button', { name: `Edit ${north.name}` }).click();
    await page.getByLabel('Description').fill('Lamp store in the basement');
    await page.getByRole('button', { name: 'Save Building' }).click();
    await waiting(2).waitFor();

    await page.getByRole('heading', { name: north.name, exact: true }).click();
    const card = page.getByRole('heading', { name: room.name });
    await card.waitFor();
    await page.getByRole('button', { name: `Edit ${room.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Room' });
    await dialog.getByLabel('Room Name *').fill('B-01 Plant');
    await dialog.getByRole('button', { name: 'Update Room' }).click();
    await waiting(3).waitFor();
    await screenshot(page, 'offline-three-waiting');
  };

  const expectEachOnServerOnce = async ({ tag, north, room }: Awaited<ReturnType<typeof arrange>>) => {
    expect(await buildingsNamed(`Annex ${tag}`)).toHaveLength(1);
    expect(await web.api<Building>('GET', `/api/buildings/${north.id}`)).toMatchObject({
      description: 'Lamp store in the basement',
      version: 2,
    });
    expect(await web.api<Room>('GET', `/api/rooms/${room.id}`)).toMatchObject({
      name: 'B-01 Plant',
      version: 2,
    });
  };

  it('keeps three edits made offline through a reload, and sends each once when the connection is back', async () => {
    await openPhone({ serviceWorkers: 'allow' });
    const arranged = await arrange();
    await page.goto('/buildings');
    // The service worker has every screen in its cache once it controls the page.
    await page.waitForFunction(
      () => (globalThis as unknown as ServiceWorkerWindow).navigator.serviceWorker.controller !== null,
      undefined,
      { timeout: 60_000 },
    );
    await threeEditsOffline(arranged);

    // Still offline: the app comes from the service worker, the changes from IndexedDB.
    await page.reload();
    await page.getByRole('heading', { name: arranged.north.name }).waitFor();
    await waiting(3).waitFor();
    await page.context().setOffline(false);
    await expectToast(page, 'Changes sent', '3 changes saved on the server.');
    await waiting(3).waitFor({ state: 'detached' });
    await expectEachOnServerOnce(arranged);
  });

  it('queues edits with service workers blocked while the page stays open', async () => {
    await openPhone({ serviceWorkers: 'block' });
    const arranged = await arrange();
    await threeEditsOffline(arranged);
    await page.context().setOffline(false);
    await waiting(3).waitFor({ state: 'detached' });
    await expectEachOnServerOnce(arranged);
  });

  it('shows both versions of a building changed elsewhere meanwhile, and merges the notes', async () => {
    await openPhone();
    const { tag, north } = await arrange();
    await openBuildings(tag);
    await page.getByRole('heading', { name: north.name, exact: true }).waitFor();
    await goOffline();
    await page.getByRole('button', { name: `Edit ${north.name}` }).click();
    await page.getByLabel('Description').fill('Projector lamp replaced');
    await page.getByRole('button', { name: 'Save Building' }).click();
    await waiting(1).waitFor();

    await web.api('PUT', `/api/buildings/${north.id}`, {
      name: north.name,
      description: 'Doors locked at 6',
    });
    await page.context().setOffline(false);
    await expectToast(page, 'Changes need you', 'Open the waiting changes', 'destructive');
    await waiting(1).click();
    const dialog = page.getByRole('dialog', { name: 'Waiting changes' });
    const row = dialog.getByRole('row').filter({ hasText: 'description' });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual([
      'description',
      'Projector lamp replaced',
      'Doors locked at 6',
    ]);
    await screenshot(page, 'offline-conflict');
    await dialog.getByRole('button', { name: 'Merge notes' }).click();
    // The list behind the dialog is hidden from the page's reading order: the toast says it was sent.
    await expectToast(page, 'Changes sent', '1 change saved on the server.');
    expect(await web.api<Building>('GET', `/api/buildings/${north.id}`)).toMatchObject({
      description: 'Doors locked at 6\nProjector lamp replaced',
      version: 3,
    });
  });

  it('brings a queued create the server refused back to its form, with the reason', async () => {
    await openPhone();
    const { room } = await arrange();
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('button', { name: 'Add First Equipment' }).waitFor();
    await goOffline();
    await page.getByRole('button', { name: 'Add First Equipment' }).click();
    const form = page.getByRole('dialog', { name: 'Add Equipment' });
    await form.getByLabel('Name *').fill('Stage camera');
    // Outside the networks this system may monitor: only the server knows them.
    await form.getByLabel('IP Address').fill('10.0.0.5');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await waiting(1).waitFor();

    await page.context().setOffline(false);
    await expectToast(page, 'Changes need you', 'Open the waiting changes', 'destructive');
    const card = page.getByTestId('pending-create').filter({ hasText: 'Stage camera' });
    await card.getByText('Add refused').waitFor();
    await card.getByText('10.0.0.5 is outside the networks this system may monitor').waitFor();
    await waiting(1).click();
    const list = page.getByRole('dialog', { name: 'Waiting changes' });
    await list.getByText('Refused: 10.0.0.5 is outside the networks this system may monitor').waitFor();
    await list.getByRole('button', { name: 'Open the form' }).click();

    await form.waitFor();
    expect(await form.getByLabel('Name *').inputValue()).toBe('Stage camera');
    expect(await form.getByRole('alert').first().innerText()).toContain(
      'The server refused this when it was sent: 10.0.0.5 is outside the networks',
    );
    await screenshot(page, 'offline-refused-create');
    await form.getByLabel('IP Address').fill('127.0.0.5');
    await form.getByRole('button', { name: 'Add Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment added successfully');
    const added = await web.api<{ name: string; ipAddress: string }[]>(
      'GET',
      `/api/rooms/${room.id}/equipment`,
    );
    expect(added).toEqual([expect.objectContaining({ name: 'Stage camera', ipAddress: '127.0.0.5' })]);
  });

  it('keeps what was typed when the session ends mid-edit, and saves it after signing in again', async () => {
    const cookie = await openPhone();
    const { tag, north } = await arrange();
    await openBuildings(tag);
    await page.getByRole('button', { name: `Edit ${north.name}` }).click();
    await page.getByLabel('Description').fill('Cable tray above the stage');

    await fetch(`${web.system.url}/api/logout`, { method: 'POST', headers: { cookie } });
    // The save finds the session gone, unless the live stream's end told the app first (the
    // dialog then covers the button).
    await page
      .getByRole('button', { name: 'Save Building' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' });
    await dialog.waitFor();
    await screenshot(page, 'offline-session-ended', { keepToasts: true });
    await dialog.getByLabel('Username').fill(web.system.admin.username);
    await dialog.getByLabel('Password').fill(web.system.admin.password);
    await dialog.getByRole('button', { name: 'Sign In' }).click();
    await dialog.waitFor({ state: 'detached' });

    expect(await page.getByLabel('Description').inputValue()).toBe('Cable tray above the stage');
    // A reload keeps it too: the form opens again with the draft.
    await page.reload();
    await page.getByPlaceholder('Search buildings...').fill(tag);
    await page.getByRole('button', { name: `Edit ${north.name}` }).click();
    expect(await page.getByLabel('Description').inputValue()).toBe('Cable tray above the stage');
    await page.getByRole('button', { name: 'Save Building' }).click();
    await expectToast(page, 'Success', 'Building updated successfully');
    expect(await web.api<Building>('GET', `/api/buildings/${north.id}`)).toMatchObject({
      description: 'Cable tray above the stage',
    });
  });

  /** Whether the API still has a record: false once it answers 404. */
  const exists = async (path: string) => {
    const res = await fetch(`${web.system.url}${path}`, { headers: sessionHeaders(web.adminCookie) });
    return res.status !== 404;
  };
  const card = (name: string) => page.getByTestId('equipment-card').filter({ hasText: name });
  /** Back to the buildings list inside the app, as a tap does (no page load: it is offline). */
  const backToBuildings = async (tag: string) => {
    await page.evaluate("window.history.pushState(null, '', '/buildings')");
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    await page.getByPlaceholder('Search buildings...').fill(tag);
  };
  const buildingCard = (name: string) => page.getByTestId('building-card').filter({ hasText: name });

  /** Offline on the room screen: the room's photo chosen and uploaded, kept on the phone. */
  const uploadOffline = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    await page.getByRole('button', { name: 'Change Room Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Room Photo' });
    await dialog.getByLabel('Choose image').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expectToast(
      page,
      'Saved on this phone',
      'Room photo will be uploaded when the connection is back.',
    );
    await dialog.waitFor({ state: 'detached' });
  };

  it('queues deletes, an upload and a picture removal made offline, shows them pending, and sends each once when back', async () => {
    await openPhone();
    const arranged = await arrange();
    const { tag, south, room } = arranged;
    const lamp = await web.api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, { name: 'Lamp' });
    await web.api('PUT', `/api/rooms/${room.id}`, {
      wiringDiagramUrl: await uploadedPicture(web, [30, 140, 90]),
    });
    // Both screens once online, as on any earlier visit.
    await openBuildings(tag);
    await buildingCard(south.name).waitFor();
    await page.goto(`/rooms/${room.id}`);
    await card('Lamp').waitFor();
    await goOffline();

    await card('Lamp').click();
    const confirmed = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    expect(await confirmed).toBe('Are you sure you want to delete this equipment?');
    await expectToast(page, 'Saved on this phone', 'It will be sent when the connection is back.');
    await card('Lamp').getByText('Pending delete').waitFor();
    await waiting(1).waitFor();

    await uploadOffline({ name: 'room.png', mimeType: 'image/png', buffer: pngImage(48, 32, [30, 90, 200]) });
    await page.getByTestId('pending-tag').getByText('Pending upload').waitFor();
    await waiting(2).waitFor();

    await page.getByRole('button', { name: 'View Wiring' }).click();
    const removing = answerNextConfirm(page, true);
    await page.getByRole('button', { name: 'Remove Wiring Diagram' }).click();
    await removing;
    await expectToast(
      page,
      'Saved on this phone',
      'Wiring diagram will be removed when the connection is back.',
    );
    await page.getByTestId('pending-tag').getByText('Pending removal').waitFor();
    await waiting(3).waitFor();
    await screenshot(page, 'offline-pending-upload');

    await backToBuildings(tag);
    await buildingCard(south.name).waitFor();
    const sure = answerNextConfirm(page, true);
    await page.getByRole('button', { name: `Delete ${south.name}` }).click();
    await sure;
    await buildingCard(south.name).getByText('Pending delete').waitFor();
    await waiting(4).waitFor();
    await screenshot(page, 'offline-pending-delete');
    // Nothing reached the server yet.
    expect(await exists(`/api/buildings/${south.id}`)).toBe(true);
    expect((await web.api<Room>('GET', `/api/rooms/${room.id}`)).wiringDiagramUrl).toMatch(/^\/objects\//);

    await page.context().setOffline(false);
    await expectToast(page, 'Changes sent', '4 changes saved on the server.');
    await waiting(4).waitFor({ state: 'detached' });
    expect(await exists(`/api/buildings/${south.id}`)).toBe(false);
    expect(await exists(`/api/equipment/${lamp.id}`)).toBe(false);
    const photographed = await web.api<Room>('GET', `/api/rooms/${room.id}`);
    expect(photographed.imageUrl).toMatch(/^\/objects\//);
    expect(photographed.wiringDiagramUrl).toBeNull();
    // The file was stored once, and the room changed once by the photo and once by the removal
    // (after the wiring diagram set on it before: version 2).
    expect(photographed.version).toBe(4);
    const picture = await fetch(`${web.system.url}${photographed.imageUrl}`, {
      headers: sessionHeaders(web.adminCookie),
    });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');
  });

  it("keeps a building's photo chosen offline on the phone (an edit's and a new building's), sends each once when back, and brings a refused one back to its form", async () => {
    await openPhone();
    const { tag, north } = await arrange();
    await openBuildings(tag);
    await buildingCard(north.name).waitFor();
    await goOffline();

    await page.getByRole('button', { name: `Edit ${north.name}` }).click();
    await page
      .getByLabel('Building Photo')
      .setInputFiles({ name: 'north.png', mimeType: 'image/png', buffer: pngImage(64, 40, [200, 60, 30]) });
    await page.getByRole('button', { name: 'Save Building' }).click();
    await expectToast(page, 'Saved on this phone', 'It will be sent when the connection is back.');
    await buildingCard(north.name).getByText('Pending upload').waitFor();
    await waiting(1).waitFor();

    /** Adds a building with a photo, offline. */
    const addWithPhoto = async (name: string, photo: { name: string; mimeType: string; buffer: Buffer }) => {
      await page.getByRole('button', { name: 'Add building' }).click();
      await page.getByLabel('Building Name *').fill(name);
      await page.getByLabel('Building Photo').setInputFiles(photo);
      await page.getByRole('button', { name: 'Add Building' }).click();
    };
    // A new building: its photo can only follow it once the building exists on the server.
    await addWithPhoto(`West ${tag}`, {
      name: 'west.png',
      mimeType: 'image/png',
      buffer: pngImage(40, 64, [30, 160, 90]),
    });
    await waiting(2).waitFor();
    // And one whose photo the server will refuse: an image by its name only.
    await addWithPhoto(`Annex ${tag}`, {
      name: 'annex.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture at all'),
    });
    await waiting(3).waitFor();
    await screenshot(page, 'offline-pending-building-photo');
    expect((await web.api<Building>('GET', `/api/buildings/${north.id}`)).imageUrl).toBeNull();

    await page.context().setOffline(false);
    await expectToast(page, 'Changes need you', 'Open the waiting changes', 'destructive');
    const photographed = await web.api<Building>('GET', `/api/buildings/${north.id}`);
    expect(photographed.imageUrl).toMatch(/^\/objects\//);
    // The photo stored once and the building changed once, on the version the phone saw.
    expect(photographed.version).toBe(2);
    const picture = await fetch(`${web.system.url}${photographed.imageUrl}`, {
      headers: sessionHeaders(web.adminCookie),
    });
    expect(picture.headers.get('content-type')).toBe('image/png');
    await buildingCard(north.name).getByText('Pending upload').waitFor({ state: 'detached' });
    const [west, ...more] = await buildingsNamed(`West ${tag}`);
    expect(more).toEqual([]);
    expect(west).toMatchObject({ imageUrl: expect.stringMatching(/^\/objects\//), version: 1 });
    const westPicture = await fetch(`${web.system.url}${west.imageUrl}`, {
      headers: sessionHeaders(web.adminCookie),
    });
    expect(westPicture.headers.get('content-type')).toBe('image/png');
    // The list shows it with its photo.
    await buildingCard(west.name).locator(`img[src="${west.imageUrl}"]`).waitFor();

    await waiting(1).click();
    const list = page.getByRole('dialog', { name: 'Waiting changes' });
    await list.getByText(`Refused: ${mediaMessages.notAnImage}`).waitFor();
    expect(await buildingsNamed(`Annex ${tag}`)).toEqual([]);
    await list.getByRole('button', { name: 'Open the form' }).click();
    await page.getByRole('heading', { name: 'Add Building' }).waitFor();
    expect(await page.getByLabel('Building Name *').inputValue()).toBe(`Annex ${tag}`);
    expect(await page.getByRole('alert').first().innerText()).toContain(
      `The server refused this when it was sent: ${mediaMessages.notAnImage}`,
    );
  });

  it('sets a picture kept on the phone on the version the technician saw: a room changed meanwhile is a conflict', async () => {
    await openPhone();
    const { room } = await arrange();
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: room.name, level: 1 }).waitFor();
    await goOffline();
    await uploadOffline({ name: 'room.png', mimeType: 'image/png', buffer: pngImage(48, 32, [30, 90, 200]) });
    await waiting(1).waitFor();

    // Meanwhile, elsewhere: the room is renamed.
    await web.api('PUT', `/api/rooms/${room.id}`, { name: 'B-01 Plant', type: 'Classroom', floor: 'B1' });
    await page.context().setOffline(false);
    await expectToast(page, 'Changes need you', 'Open the waiting changes', 'destructive');
    expect(await web.api<Room>('GET', `/api/rooms/${room.id}`)).toMatchObject({ imageUrl: null, version: 2 });
    await page.getByTestId('pending-tag').getByText('Upload: changed elsewhere').waitFor();
    await waiting(1).click();
    const list = page.getByRole('dialog', { name: 'Waiting changes' });
    const row = list.getByRole('row').filter({ hasText: 'imageUrl' });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(['imageUrl', 'New picture: room.png', '—']);
    await screenshot(page, 'offline-upload-conflict');
    await list.getByRole('button', { name: 'Keep mine' }).click();
    await expectToast(page, 'Changes sent', '1 change saved on the server.');
    const kept = await web.api<Room>('GET', `/api/rooms/${room.id}`);
    expect(kept).toMatchObject({
      name: 'B-01 Plant',
      imageUrl: expect.stringMatching(/^\/objects\//),
      version: 3,
    });
  });

  it('shows a delete of a record changed meanwhile as a conflict, counts one already gone as done, and brings back a refused upload with the reason', async () => {
    await openPhone();
    const { tag, north, south, room } = await arrange();
    await openBuildings(tag);
    await buildingCard(south.name).waitFor();
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: room.name, level: 1 }).waitFor();
    await goOffline();
    // An image by its name and type only: the server reads what it is.
    await uploadOffline({
      name: 'lamp.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture at all'),
    });

    await backToBuildings(tag);
    for (const building of [north, south]) {
      await buildingCard(building.name).waitFor();
      const sure = answerNextConfirm(page, true);
      await page.getByRole('button', { name: `Delete ${building.name}` }).click();
      await sure;
    }
    await waiting(3).waitFor();

    // Meanwhile, elsewhere: North is described anew, South deleted.
    await web.api('PUT', `/api/buildings/${north.id}`, { name: north.name, description: 'Boiler room' });
    await web.api('DELETE', `/api/buildings/${south.id}`);
    await page.context().setOffline(false);
    await expectToast(page, 'Changes need you', 'Open the waiting changes', 'destructive');
    await waiting(2).click();
    const list = page.getByRole('dialog', { name: 'Waiting changes' });
    await list.getByText(`Refused: ${mediaMessages.notAnImage}`).waitFor();
    const conflict = list.getByRole('listitem').filter({ hasText: `Delete building ${north.name}` });
    await conflict.getByText('Changed on the server after you chose to delete it.').waitFor();
    expect(await conflict.getByRole('row').filter({ hasText: 'description' }).innerText()).toContain(
      'Boiler room',
    );
    await screenshot(page, 'offline-delete-conflict');
    expect(await exists(`/api/buildings/${north.id}`)).toBe(true);

    await conflict.getByRole('button', { name: 'Delete anyway' }).click();
    await conflict.waitFor({ state: 'detached' });
    await eventually(async () => expect(await exists(`/api/buildings/${north.id}`)).toBe(false));
    // Left: the refused upload, to discard (its room went with its building).
    await list.getByRole('button', { name: 'Discard' }).click();
    await waiting(1).waitFor({ state: 'detached' });
  });
});
