import { randomUUID } from 'node:crypto';
import { type Building, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import {
  openSharedWebSystem,
  openSignedInPhone,
  type Phone,
  type PhoneOptions,
  screenshot,
  type WebSystem,
} from './browser';

/** The in-app message of a screen whose code could not be fetched. */
const CODE_MISSING = 'This screen opens when you are back online.';
/** LoadError's: the screen's code is there, its data is not. */
const DATA_MISSING = 'This screen loads again by itself when the connection is back.';

/** What the test reads of the page's window (the test's TypeScript has no DOM types). */
interface ServiceWorkerWindow {
  navigator: { serviceWorker: { controller: unknown } };
}

/** Opens an address inside the app, as a tap on a link does: no page load. */
async function openInApp(page: Page, address: string): Promise<void> {
  await page.evaluate(`window.history.pushState(null, '', ${JSON.stringify(address)})`);
}

/** Neither the browser's error page nor a blank one: the app, with its navigation. */
async function expectTheApp(page: Page): Promise<void> {
  expect(page.url()).not.toMatch(/^chrome-error:/);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/**
 * Issue 37, a technician in a basement: after one visit online, every main screen opens with the
 * network gone, at 390×844. With the service worker each screen's code comes from its cache; a
 * browser without one says the screen opens once back online, and never swaps the app for the
 * browser's "no internet" page.
 */
describe('web app offline: every main screen opens without the network', () => {
  let web: WebSystem;
  let phone: Phone;
  let building: Building;
  let room: Room;

  beforeAll(async () => {
    web = await openSharedWebSystem();
    building = await web.api<Building>('POST', '/api/buildings', {
      name: `Basement ${randomUUID().slice(0, 8)}`,
    });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'B-07',
      type: 'Classroom',
      floor: 'B1',
    });
  });
  afterAll(() => web?.close());
  afterEach(async () => {
    await phone?.context.close();
    // A failed fetch offline is the point here; anything else the page logged is not.
    expect(
      phone.problems.filter(
        (p) => !/Failed to fetch|dynamically imported module|ERR_INTERNET_DISCONNECTED/.test(p),
      ),
    ).toEqual([]);
  });

  const screens = () => [
    { address: `/buildings/${building.id}/rooms`, name: 'rooms' },
    { address: `/rooms/${room.id}`, name: 'room' },
    { address: `/buildings/${building.id}/labels`, name: 'labels' },
    { address: '/search', name: 'search' },
    { address: '/reports', name: 'reports' },
    { address: '/users', name: 'users' },
    { address: '/settings', name: 'settings' },
    { address: '/settings/fleet', name: 'fleet' },
    { address: '/account', name: 'account' },
  ];

  /** A signed-in phone that has opened the buildings list, the only screen it has seen online. */
  async function firstVisit(options: PhoneOptions): Promise<Page> {
    phone = await openSignedInPhone(web.browser, web.system.url, web.adminCookie, options);
    const { page } = phone;
    await page.goto('/buildings');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    return page;
  }

  it('opens every screen offline with its code from the service worker, and survives a reload', async () => {
    const page = await firstVisit({ serviceWorkers: 'allow' });
    // Installed once every chunk is in its cache; from then on it answers this page too.
    await page.waitForFunction(
      () => (globalThis as unknown as ServiceWorkerWindow).navigator.serviceWorker.controller !== null,
      undefined,
      { timeout: 60_000 },
    );
    await phone.context.setOffline(true);

    for (const { address, name } of screens()) {
      await openInApp(page, address);
      await expectTheApp(page);
      await page.getByRole('status', { name: 'Loading the screen' }).waitFor({ state: 'detached' });
      // The screen's own code ran: its heading, or its data's offline card.
      await page.locator('main').getByRole('heading').first().waitFor();
      expect([address, await page.getByText(CODE_MISSING).count()]).toEqual([address, 0]);
      await screenshot(page, `offline-sw-${name}`);
    }

    await page.reload();
    await page.locator('#root > *').first().waitFor();
    expect(page.url()).not.toMatch(/^chrome-error:/);
    expect(await page.title()).toBe('Classroom Monitor');
  });

  it('without a service worker, says a screen not yet opened opens when back online, and then opens it', async () => {
    const page = await firstVisit({ serviceWorkers: 'block' });
    await phone.context.setOffline(true);

    for (const { address, name } of screens()) {
      await openInApp(page, address);
      await expectTheApp(page);
      await page.getByText(CODE_MISSING).or(page.getByText(DATA_MISSING)).first().waitFor();
      expect(await page.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
      await screenshot(page, `offline-no-sw-${name}`);
    }

    await openInApp(page, '/reports');
    await page.getByText(CODE_MISSING).waitFor();
    await phone.context.setOffline(false);
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(await page.getByText(CODE_MISSING).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/reports');
  });
});
