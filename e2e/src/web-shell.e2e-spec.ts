import { type Building, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import {
  expectToast,
  holdRequests,
  openPhone,
  openSignedInPhone,
  type Phone,
  screenshot,
  signInThroughForm,
  textsOf,
  openSharedWebSystem,
  type WebSystem,
} from './browser';
import { createUser, signIn } from './session';

describe('web app: sign-in, routes and chrome', () => {
  let web: WebSystem;
  let phone: Phone;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);

  beforeAll(async () => {
    web = await openSharedWebSystem();
  });
  afterAll(() => web?.close());
  beforeEach(async () => {
    phone = await openPhone(web.browser, web.system.url);
  });
  afterEach(async () => {
    await phone.context.close();
    expect(phone.problems).toEqual([]);
  });

  it('shows a spinner while it asks who is signed in, then the sign-in screen at any address', async () => {
    const { page } = phone;
    const held = await holdRequests(page, '**/api/auth/user');
    try {
      await page.goto('/rooms/00000000-0000-4000-8000-000000000000');
      await page.getByRole('status', { name: 'Checking your session' }).waitFor();
    } finally {
      held.release();
    }
    await page.getByRole('heading', { name: 'Classroom Monitor' }).waitFor();
    expect(await page.getByText('Sign in to access the system').isVisible()).toBe(true);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await screenshot(page, 'sign-in');
  });

  it('says the server is not answering, not "sign in", when the session cannot be checked, and recovers', async () => {
    const { page } = phone;
    // What the gateway answers while the sign-in service is down.
    await page.route('**/api/auth/user', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          code: 'COMMON.SERVICE_UNAVAILABLE',
          message: 'The sign-in service is not answering. Try again shortly.',
        }),
      }),
    );
    await page.goto('/buildings');
    await page.getByRole('heading', { name: 'Classroom Monitor is not answering' }).waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('The sign-in service is not answering.');
    expect(await page.getByLabel('Username').count()).toBe(0);
    await screenshot(page, 'session-check-failed');

    await page.unroute('**/api/auth/user');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Sign in to access the system').waitFor();
  });

  it('refuses to send an empty sign-in, and says why a wrong password failed', async () => {
    const { page } = phone;
    const logins: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/login') && logins.push(request.method()));
    await page.goto('/');
    await page.getByLabel('Username').fill(web.system.admin.username);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Missing information', 'Please enter both username and password.', 'destructive');
    expect(logins).toEqual([]);

    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, 'Sign in failed', 'Invalid username or password', 'destructive');
    expect(logins).toEqual(['POST']);
    await screenshot(page, 'sign-in-failed', { keepToasts: true });
  });

  it('reads "Signing In..." while the request runs, welcomes the user and opens /buildings', async () => {
    const { page } = phone;
    const held = await holdRequests(page, '**/api/login');
    try {
      // From the root: a deeper address stays where it is (see web-qr-labels).
      await page.goto('/');
      await page.getByLabel('Username').fill(web.system.admin.username);
      await page.getByLabel('Password').fill(web.system.admin.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      const pending = page.getByRole('button', { name: 'Signing In...' });
      await pending.waitFor();
      expect(await pending.isDisabled()).toBe(true);
    } finally {
      held.release();
    }
    await expectToast(page, 'Welcome back!', 'You have successfully signed in.');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/buildings');
  });

  it('offers Users in the navigation to administrators only', async () => {
    await signInThroughForm(phone.page, web.system.admin);
    const nav = phone.page.getByRole('navigation', { name: 'Main' });
    expect(await textsOf(nav.locator('a, button'))).toEqual([
      'Buildings',
      'Reports',
      'Users',
      'Settings',
      'Search',
    ]);
    await nav.getByRole('link', { name: 'Users' }).click();
    await phone.page.getByRole('heading', { name: 'User Management' }).waitFor();
    await screenshot(phone.page, 'users-admin');

    const user = { username: `teacher-${Date.now()}`, password: 'a long enough password' };
    await createUser(web.system.url, web.adminCookie, user);
    const other = await openPhone(web.browser, web.system.url);
    try {
      await signInThroughForm(other.page, user);
      const userNav = other.page.getByRole('navigation', { name: 'Main' });
      expect(await textsOf(userNav.locator('a, button'))).toEqual([
        'Buildings',
        'Reports',
        'Settings',
        'Search',
      ]);
      await screenshot(other.page, 'buildings-as-user');
      expect(other.problems).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('shows the 404 card for an unknown path, with a way back', async () => {
    const { page } = phone;
    await signInThroughForm(page, web.system.admin);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/buildings');
  });

  it('loads each screen on its first visit, and reloads once when a release has replaced its file', async () => {
    const { page } = phone;
    const scripts: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname);
    });
    await signInThroughForm(page, web.system.admin);
    expect(scripts.filter((p) => p.startsWith('/assets/reports-page-'))).toEqual([]);

    // As after an upgrade: the page was opened before it, and the old file is gone.
    const refused: string[] = [];
    await page.route(
      '**/assets/reports-page-*.js',
      (route) => {
        refused.push(new URL(route.request().url()).pathname);
        return route.fulfill({ status: 404, body: 'Not found' });
      },
      { times: 1 },
    );
    const reloaded = page.waitForEvent('load');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
    await reloaded;
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(refused).toHaveLength(1);
    expect(new URL(page.url()).pathname).toBe('/reports');
  });

  it('shows the back button and the breadcrumb by the rules of the chrome', async () => {
    const building = await api<Building>('POST', '/api/buildings', { name: 'Breadcrumb Hall' });
    const room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'B-101',
      type: 'Classroom',
      floor: '1',
    });
    const { page } = phone;
    const back = page.getByRole('link', { name: 'Back', exact: true });
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    const path = () => new URL(page.url()).pathname;

    await signInThroughForm(page, web.system.admin);
    expect(await back.count()).toBe(0);
    expect(await crumbs.count()).toBe(0);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    expect(await back.count()).toBe(0);

    await page
      .getByRole('link', { name: /Breadcrumb Hall/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Breadcrumb Hall Rooms' }).waitFor();
    expect(await textsOf(crumbs.locator('a, span'))).toEqual(['Buildings', 'Breadcrumb Hall']);
    await back.click();
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
    expect(path()).toBe('/buildings');

    await page.goto(`/rooms/${room.id}`);
    await crumbs.getByText('B-101').waitFor();
    expect(await textsOf(crumbs.locator('a, span'))).toEqual(['Buildings', 'Breadcrumb Hall', 'B-101']);
    await screenshot(page, 'room-detail-breadcrumb');
    await back.click();
    await page.getByRole('heading', { name: 'Breadcrumb Hall Rooms' }).waitFor();
    expect(path()).toBe(`/buildings/${building.id}/rooms`);

    await page.goto(`/rooms/${room.id}`);
    await crumbs.getByRole('link', { name: 'Buildings' }).click();
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();

    // A room nobody knows has no building to go back to.
    await page.goto('/rooms/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Room not found' }).waitFor();
    await screenshot(page, 'room-not-found');
    expect(await crumbs.count()).toBe(0);
    await back.click();
    await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();

    for (const [where, heading] of [
      ['/settings', 'Settings'],
      ['/reports', 'Reports'],
    ]) {
      await page.goto(where);
      await page.getByRole('heading', { name: heading }).waitFor();
      await screenshot(page, `${heading.toLowerCase()}-chrome`);
      await back.click();
      await page.getByRole('heading', { name: 'Campus Buildings' }).waitFor();
      expect(path()).toBe('/buildings');
    }
  });

  it('asks to sign in again, over the screen, by itself when the session ended elsewhere', async () => {
    await api<Building>('POST', '/api/buildings', { name: 'Expiry Hall' });
    const cookie = await signIn(web.system.url, web.system.admin.username, web.system.admin.password);
    const other = await openSignedInPhone(web.browser, web.system.url, cookie);
    try {
      await other.page.goto('/buildings');
      const card = other.page.getByRole('link', { name: /Expiry Hall/ });
      await card.waitFor();
      const ended = await fetch(`${web.system.url}/api/logout`, { method: 'POST', headers: { cookie } });
      expect(ended.status).toBe(204);
      // The live stream ends with the session, so no click is needed: the sign-in dialog comes on
      // its own over the screen, which stays as it was (an open form would keep what was typed).
      const dialog = other.page.getByRole('dialog', { name: 'Your session has ended' });
      await dialog.waitFor();
      expect(await dialog.getByLabel('Username').isVisible()).toBe(true);
      expect(new URL(other.page.url()).pathname).toBe('/buildings');
      expect(await other.page.getByText('Expiry Hall').first().isVisible()).toBe(true);
      expect(other.problems).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('signs out: the session ends and the sign-in screen returns', async () => {
    const { page } = phone;
    await signInThroughForm(page, web.system.admin);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByText('Sign in to access the system').waitFor();
    await page.goto('/buildings');
    await page.getByText('Sign in to access the system').waitFor();
    const me = await page.request.get('/api/auth/user');
    expect(me.status()).toBe(401);
  });

  it('signs out by navigating to /api/logout with its sign-out token when the POST fails', async () => {
    const { page } = phone;
    await signInThroughForm(page, web.system.admin);
    // The gateway hands the token with the first answers of the session (the buildings list).
    const token = await eventually(async () => {
      const cookie = (await page.context().cookies()).find((c) => c.name === 'cm.signout');
      expect(cookie?.value).toMatch(/^[\w-]{43}$/);
      return cookie!.value;
    });
    await page.route('**/api/logout', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"code":"COMMON.SERVICE_UNAVAILABLE","message":"down"}',
          })
        : route.continue(),
    );
    const navigated = page.waitForRequest((r) => r.method() === 'GET' && r.url().includes('/api/logout'));
    await page.getByRole('button', { name: 'Sign Out' }).click();
    expect(new URL((await navigated).url()).searchParams.get('token')).toBe(token);
    await page.getByText('Sign in to access the system').waitFor();
    expect((await page.request.get('/api/auth/user')).status()).toBe(401);
  });
});
