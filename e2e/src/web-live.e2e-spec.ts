import { type Building, type Equipment, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { openSignedInPhone, type Phone, screenshot, startWebSystem, type WebSystem } from './browser';

describe('web app: changes pushed to open screens (GET /api/events)', () => {
  let web: WebSystem;
  let viewer: Phone;
  let editor: Phone;
  let hall: Building;
  let projector: Equipment;

  const roomCard = (page: Page, name: string) =>
    page.getByTestId('room-card').filter({ has: page.getByRole('heading', { name, exact: true }) });
  const banner = (page: Page) => page.getByRole('button', { name: /need(s)? attention in/ });
  /**
   * Opens `path` and waits until its live stream is open (its `ready` event has arrived); the page
   * then counts the `equipment.status` events its stream brings.
   */
  const openLive = async (page: Page, path: string) => {
    await page.addInitScript(`(() => {
      const Original = window.EventSource;
      window.EventSource = class extends Original {
        constructor(...args) {
          super(...args);
          this.addEventListener('ready', () => (window.__liveReady = true));
          this.addEventListener('equipment.status', () => (window.__statusEvents = (window.__statusEvents ?? 0) + 1));
        }
      };
    })()`);
    await page.goto(path);
    // Polled from here: waitForFunction would evaluate text, which the page's CSP forbids.
    for (let tries = 0; !(await page.evaluate<boolean>('window.__liveReady === true')); tries++) {
      if (tries > 100) throw new Error(`The live stream of ${path} never said ready`);
      await page.waitForTimeout(100);
    }
    // Survives only as long as the page is not loaded again.
    await page.evaluate('window.__notReloaded = true');
  };
  const notReloaded = (page: Page) => page.evaluate<boolean>('window.__notReloaded === true');
  const statusEvents = (page: Page) => page.evaluate<number>('window.__statusEvents ?? 0');

  beforeAll(async () => {
    web = await startWebSystem();
    hall = await web.api<Building>('POST', '/api/buildings', { name: 'Live Hall' });
    const lab = await web.api<Room>('POST', `/api/buildings/${hall.id}/rooms`, {
      name: 'L101',
      type: 'Classroom',
      floor: '1',
    });
    // No addresses: only the change this test makes sets a status.
    projector = await web.api<Equipment>('POST', `/api/rooms/${lab.id}/equipment`, { name: 'Projector' });
    await web.api('POST', `/api/rooms/${lab.id}/equipment`, { name: 'Display' });
    viewer = await openSignedInPhone(web.browser, web.system.url, web.adminCookie);
    editor = await openSignedInPhone(web.browser, web.system.url, web.adminCookie);
  });
  afterAll(async () => {
    await viewer?.context.close();
    await editor?.context.close();
    await web?.close();
  });

  // The promise is "within 2 s"; how long it takes is measured by bench/live, not timed here.
  it("shows a status change made in another browser on the open Rooms screen and in the Buildings screen's banner, as it is pushed", async () => {
    const rooms = viewer.page;
    const buildings = await viewer.context.newPage();
    await openLive(rooms, `/buildings/${hall.id}/rooms`);
    await roomCard(rooms, 'L101').waitFor();
    await openLive(buildings, '/buildings');
    expect(await rooms.getByTestId('status-chips').count()).toBe(0);
    expect(await banner(buildings).count()).toBe(0);

    // A person marks the projector down from another browser; the answer comes after the commit.
    const res = await editor.context.request.put(`/api/equipment/${projector.id}`, {
      data: { name: 'Projector', status: 'inactive' },
    });
    expect(res.status()).toBe(200);

    await roomCard(rooms, 'L101').getByText('1 inactive').waitFor();
    await banner(buildings).waitFor();
    expect(await banner(buildings).innerText()).toBe('1 device needs attention in 1 room');
    expect(await notReloaded(rooms)).toBe(true);
    expect(await notReloaded(buildings)).toBe(true);
    // Neither screen polls: what changed them is the event their streams brought.
    expect(await statusEvents(rooms)).toBe(1);
    expect(await statusEvents(buildings)).toBe(1);
    await screenshot(rooms, 'live-rooms-status-pushed');
    await screenshot(buildings, 'live-buildings-banner-pushed');

    // And back: the banner goes away the same way.
    await editor.context.request.put(`/api/equipment/${projector.id}`, {
      data: { name: 'Projector', status: 'active' },
    });
    await banner(buildings).waitFor({ state: 'detached' });
    await roomCard(rooms, 'L101').getByText('1 inactive').waitFor({ state: 'detached' });
    expect(await statusEvents(buildings)).toBe(2);
    expect(viewer.problems).toEqual([]);
  });

  it('shows the sign-in screen, without a reload, when the session is signed out in another browser', async () => {
    const page = viewer.page;
    // The same session as the viewer's: its stream ends, and the app asks who is signed in.
    expect((await editor.context.request.post('/api/logout')).status()).toBe(204);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await notReloaded(page)).toBe(true);
  });
});
