import { type Building, type Room } from '@cm/contracts';
import jsQR from 'jsqr';
import { type Locator, type Page } from 'playwright-core';
import {
  expectToast,
  openPhone,
  openSharedWebSystem,
  openSignedInPhone,
  type Phone,
  screenshot,
  textsOf,
  type WebSystem,
} from './browser';

describe('web app: QR labels and deep links', () => {
  let web: WebSystem;
  let building: Building;
  let rooms: Room[];
  let phone: Phone;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const roomUrl = (room: Room) => `${web.system.url}/rooms/${room.id}`;

  /**
   * What a phone camera would read: the code as painted on screen (a picture of the element),
   * turned into pixels in a blank page (the app's security policy rightly refuses data: images)
   * and decoded by jsQR, which knows nothing of the encoder the app uses.
   */
  const decodeQr = async (code: Locator): Promise<string | undefined> => {
    const png = (await code.screenshot()).toString('base64');
    const scratch = await web.browser.newPage();
    try {
      const { width, height, rgba } = await scratch.evaluate<{
        width: number;
        height: number;
        rgba: string;
      }>(`
        (async () => {
          const img = new Image();
          img.src = 'data:image/png;base64,${png}';
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = img.naturalWidth;
          canvas.height = img.naturalHeight;
          const context = canvas.getContext('2d');
          context.drawImage(img, 0, 0);
          const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
          let bytes = '';
          for (let i = 0; i < data.length; i += 8192)
            bytes += String.fromCharCode(...data.subarray(i, i + 8192));
          return { width: canvas.width, height: canvas.height, rgba: btoa(bytes) };
        })()`);
      const pixels = new Uint8ClampedArray(Buffer.from(rgba, 'base64'));
      return jsQR(pixels, width, height)?.data;
    } finally {
      await scratch.close();
    }
  };

  const signInHere = async (page: Page) => {
    await page.getByLabel('Username').fill(web.system.admin.username);
    await page.getByLabel('Password').fill(web.system.admin.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Welcome back!', 'You have successfully signed in.');
  };

  beforeAll(async () => {
    web = await openSharedWebSystem();
    building = await api<Building>('POST', '/api/buildings', { name: 'Label Hall' });
    const other = await api<Building>('POST', '/api/buildings', { name: 'Other Hall' });
    await api('POST', `/api/buildings/${other.id}/rooms`, { name: 'Elsewhere', type: 'Office', floor: '1' });
    rooms = [];
    for (const [name, floor] of [
      ['201', '2'],
      ['Store', 'B1'],
      ['101', '1'],
      ['102', '1'],
      ['Science Lab', '3'],
      ['Lecture Theatre North Wing', '1'],
      ['202', '2'],
    ])
      rooms.push(
        await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
          name,
          floor,
          type: 'Classroom',
          capacity: 20,
        }),
      );
  });
  afterAll(() => web?.close());
  afterEach(async () => {
    await phone?.context.close();
    expect(phone.problems).toEqual([]);
  });

  it("shows a room's QR label, whose code opens that room", async () => {
    phone = await openSignedInPhone(web.browser, web.system.url, web.adminCookie);
    const { page } = phone;
    const room = rooms.find((r) => r.name === 'Science Lab')!;
    await page.goto(`/rooms/${room.id}`);
    await page.getByRole('heading', { name: 'Science Lab', level: 1 }).waitFor();
    await screenshot(page, 'room-detail-qr-button');
    await page.getByRole('button', { name: 'QR label' }).click();
    const dialog = page.getByRole('dialog', { name: 'QR label' });
    const code = dialog.getByRole('img', { name: 'QR code of Science Lab' });
    await code.waitFor();
    await dialog.getByText('Label Hall', { exact: true }).waitFor();
    expect(await textsOf(dialog.locator('p'))).toEqual([
      'Scan it to open this room.',
      'Science Lab',
      'Label Hall',
      'Floor 3',
      roomUrl(room),
    ]);
    expect(await decodeQr(code)).toBe(roomUrl(room));
    await screenshot(page, 'room-qr-label');

    await dialog.getByRole('link', { name: 'Labels of all rooms in this building' }).click();
    await page.getByRole('heading', { name: 'Label Hall QR labels' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/buildings/${building.id}/labels`);
  });

  it("prints a building's label sheet: one code per room, its name, building and floor under it, nothing else", async () => {
    phone = await openSignedInPhone(web.browser, web.system.url, web.adminCookie);
    const { page } = phone;
    await page.goto(`/buildings/${building.id}/rooms`);
    await page.getByRole('link', { name: 'Print QR labels' }).click();
    await page.getByRole('heading', { name: 'Label Hall QR labels' }).waitFor();
    const labels = page.getByRole('list', { name: 'QR labels' }).getByRole('listitem');
    await labels.getByRole('img').first().waitFor();
    // The rooms list's order: floors B1, 1, 2, 3, then by name.
    const texts = (await textsOf(labels)).map((t) => t.replace(/\s+/g, ' '));
    // Each names its building: a label found on its own still says where it belongs.
    expect(texts).toEqual([
      'Store Label Hall Floor B1',
      '101 Label Hall Floor 1',
      '102 Label Hall Floor 1',
      'Lecture Theatre North Wing Label Hall Floor 1',
      '201 Label Hall Floor 2',
      '202 Label Hall Floor 2',
      'Science Lab Label Hall Floor 3',
    ]);
    await screenshot(page, 'room-labels-sheet');
    expect(await page.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe(
      `/buildings/${building.id}/rooms`,
    );
    expect(await textsOf(page.getByRole('navigation', { name: 'Breadcrumb' }))).toEqual([
      expect.stringMatching(/^Buildings\s+Label Hall\s+QR labels$/),
    ]);

    // On paper: the labels only (no header, navigation or Print button), three a row.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header').isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    const tops = await labels.evaluateAll((items) =>
      items.map((item) =>
        Math.round(
          (item as unknown as { getBoundingClientRect(): { top: number } }).getBoundingClientRect().top,
        ),
      ),
    );
    expect(tops.filter((top) => top === tops[0])).toHaveLength(3);
    await screenshot(page, 'room-labels-print');
    // Each code on the sheet reads as its own room's address (on the print layout, where no
    // fixed navigation covers a code).
    for (const room of rooms) {
      const code = labels.getByRole('img', { name: `QR code of ${room.name}`, exact: true });
      expect(await decodeQr(code)).toBe(roomUrl(room));
    }

    // Chromium's print to PDF on A4 (print media, as still emulated): every code is a link to its room, so the PDF holds one
    // link annotation per room, each to that room's address, and none to anything else.
    const pdf = (await page.pdf({ format: 'A4', printBackground: true })).toString('latin1');
    const links = [...pdf.matchAll(/\/URI \(([^)]*)\)/g)].map((m) => m[1]);
    expect(links.sort()).toEqual(rooms.map(roomUrl).sort());
    expect([...pdf.matchAll(/\/Type \/Page\b/g)]).toHaveLength(1);
  });

  it('opens a room from its code after signing in, and never leaves the site after sign-in', async () => {
    phone = await openPhone(web.browser, web.system.url);
    const { page } = phone;
    const room = rooms.find((r) => r.name === '202')!;
    await page.goto(roomUrl(room));
    await page.getByRole('heading', { name: 'Classroom Monitor' }).waitFor();
    await signInHere(page);
    await page.getByRole('heading', { name: '202', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/rooms/${room.id}`);
    await screenshot(page, 'deep-link-after-sign-in');

    // An address whose path would read as another site ("//host") goes to the buildings list.
    await page.context().clearCookies();
    for (const path of ['//evil.example/rooms/1', '///evil.example']) {
      const answer = await page.goto(`${web.system.url}${path}`);
      expect(`${answer?.status()} ${await answer?.text()}`.slice(0, 120)).toMatch(/^200 <!doctype html>/i);
      await page.getByRole('heading', { name: 'Classroom Monitor' }).waitFor();
      await signInHere(page);
      await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
      expect(new URL(page.url())).toMatchObject({ origin: web.system.url, pathname: '/buildings' });
      await page.context().clearCookies();
    }
  });
});
