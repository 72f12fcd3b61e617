import { type Building, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { expectToast, openSharedWebSystem, pngImage, signedInPhonePerTest, type WebSystem } from './browser';

const photo = { name: 'lab.png', mimeType: 'image/png', buffer: pngImage(480, 320, [40, 110, 190]) };

/**
 * The topology of docker-compose.yml: no S3_PUBLIC_ENDPOINT, the store reachable by the services
 * alone. The browser here reaches nothing but the app's origin (every other request is refused),
 * and a photo still uploads and shows.
 */
describe('web app: a photo upload with the store out of the browser’s reach', () => {
  let web: WebSystem;
  let page: Page;
  let room: Room;

  beforeAll(async () => {
    web = await openSharedWebSystem();
    const building = await web.api<Building>('POST', '/api/buildings', { name: 'Upload Hall' });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'Lab 2',
      type: 'Computer Lab',
      floor: '2',
      capacity: 16,
    });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );
  const uploadRoomPhoto = async () => {
    await page.getByRole('heading', { name: 'Lab 2', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Change Room Photo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Room Photo' });
    await dialog.getByLabel('Choose image').setInputFiles(photo);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    return dialog;
  };

  it('sends the file to the app’s own origin, which stores it, and shows the photo', async () => {
    const app = new URL(web.system.url);
    const elsewhere: string[] = [];
    await page.context().route('**/*', (route) => {
      const { origin } = new URL(route.request().url());
      if (origin === app.origin) return route.continue();
      elsewhere.push(`${route.request().method()} ${origin}`);
      return route.abort('addressunreachable');
    });
    const puts: { url: string; status: number }[] = [];
    page.on('response', (res) => {
      if (res.request().method() === 'PUT' && new URL(res.url()).pathname.startsWith('/store/'))
        puts.push({ url: res.url(), status: res.status() });
    });

    const document = await page.goto(`/rooms/${room.id}`);
    // The same origin is all the page may connect to: the policy names no store.
    expect(document?.headers()['content-security-policy']).toContain("connect-src 'self';");
    await uploadRoomPhoto();
    await expectToast(page, 'Success', 'Room photo uploaded successfully');

    const hero = page.getByRole('img', { name: 'Photo of Lab 2' });
    const shown = await hero.evaluate((el) => {
      const image = el as unknown as { naturalWidth: number; decode(): Promise<void> };
      return image.decode().then(() => image.naturalWidth);
    });
    expect(shown).toBe(480);
    expect(puts).toEqual([
      {
        url: expect.stringMatching(
          new RegExp(`^${app.origin}/store/[a-z0-9.-]+/uploads/[0-9a-f-]{36}\\?X-Amz-`),
        ),
        status: 200,
      },
    ]);
    expect(elsewhere).toEqual([]);

    // What was stored is the file that was picked.
    const saved = await web.api<Room>('GET', `/api/rooms/${room.id}`);
    const stored = await fetch(`${web.system.url}${saved.imageUrl}`, {
      headers: { cookie: web.adminCookie },
    });
    expect(Buffer.from(await stored.arrayBuffer())).toEqual(photo.buffer);
  });

  it('says why the store refused the upload when its link has expired', async () => {
    await page.route('**/api/objects/upload', async (route) => {
      const answer = await route.fetch();
      const link = new URL(((await answer.json()) as { uploadURL: string }).uploadURL);
      link.searchParams.set('X-Amz-Date', '20200101T000000Z');
      await route.fulfill({ response: answer, json: { uploadURL: link.toString() } });
    });
    await page.goto(`/rooms/${room.id}`);
    const dialog = await uploadRoomPhoto();
    await expectToast(page, 'Upload Error', 'Failed to upload image', 'destructive');
    // The store's reason, as the gateway's /store put it into words.
    await dialog
      .getByText('The upload link has expired (Request has expired). Start the upload again.')
      .waitFor();
  });
});
