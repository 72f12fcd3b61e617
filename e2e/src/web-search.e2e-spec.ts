import { randomBytes } from 'node:crypto';
import { type Building, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { openSharedWebSystem, screenshot, signedInPhonePerTest, type WebSystem } from './browser';

describe('web app: search', () => {
  let web: WebSystem;
  let page: Page;
  // The shared system holds other files' records: this file's own are told apart by a random tag.
  const tag = randomBytes(4).toString('hex').toUpperCase();
  const serial = `QX${tag}77`;
  let room: Room;

  beforeAll(async () => {
    web = await openSharedWebSystem();
    const building = await web.api<Building>('POST', '/api/buildings', { name: `Search Hall ${tag}` });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'Lecture 3',
      type: 'Lecture Hall',
      floor: '2',
    });
    await web.api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Lectern Display',
      model: 'Sharp PN-LE',
      serialNumber: serial,
    });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (p) => (page = p.page),
  );

  it('finds a device by a fragment of its serial number, shows where it is, and opens its room', async () => {
    await page.goto('/buildings');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Search', level: 1 }).waitFor();
    const box = page.getByRole('searchbox', { name: 'Search everything' });

    await box.fill('q');
    await page.getByText('Type at least 3 characters').waitFor();

    // The end of the serial number, in lower case: found in no other field.
    await box.fill(serial.slice(6).toLowerCase());
    const equipment = page.getByRole('region', { name: 'Equipment' });
    const hit = equipment.getByRole('link').filter({ hasText: 'Lectern Display' });
    await hit.waitFor();
    expect(await hit.innerText()).toContain(`Search Hall ${tag} > Lecture 3`);
    expect(await hit.innerText()).toContain(`S/N ${serial}`);
    expect(await page.getByRole('region', { name: 'Buildings' }).count()).toBe(0);
    await screenshot(page, 'search-results');

    await hit.click();
    await page.getByRole('heading', { name: 'Lecture 3', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/rooms/${room.id}`);
  });

  it('says so when nothing matches', async () => {
    await page.goto('/search');
    await page.getByRole('searchbox', { name: 'Search everything' }).fill(`zz${tag}zz`);
    await page.getByText(`Nothing matches “zz${tag}zz”`).waitFor();
    await screenshot(page, 'search-nothing');
  });
});
