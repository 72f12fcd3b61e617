import { readFileSync } from 'node:fs';
import {
  authMessages,
  type Building,
  type Equipment,
  type Room,
  type UptimeReport,
  type User,
  type UserListItem,
} from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { type Page } from 'playwright-core';
import {
  answerNextConfirm,
  expectToast,
  openPhone,
  signedInPhonePerTest,
  screenshot,
  signInThroughForm,
  startWebSystem,
  textsOf,
  type WebSystem,
} from './browser';
import { createUser, signIn } from './session';

/** Settings, Reports and User Management against the whole system, the monitor pinging loopback. */
describe('web app: settings, reports and users', () => {
  let web: WebSystem;
  let page: Page;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const addRoom = async (buildingName: string, roomName: string) => {
    const building = await api<Building>('POST', '/api/buildings', { name: buildingName });
    return api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: roomName,
      type: 'Lecture Hall',
      floor: '1',
      capacity: 80,
    });
  };
  const addEquipment = (room: Room, name: string, status: string, ipAddress = '') =>
    api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, { roomId: room.id, name, status, ipAddress });
  const statusOnCard = (name: string) =>
    page.getByTestId('equipment-card').filter({ hasText: name }).getByTestId('status-dot').locator('..');
  /** Reloads the room until every named card reads `label` (inventory records checks as they arrive). */
  const waitForStatus = (room: Room, names: string[], label: string) =>
    eventually(
      async () => {
        await page.goto(`/rooms/${room.id}`);
        await page.getByTestId('equipment-card').first().waitFor();
        const shown = await Promise.all(names.map((n) => statusOnCard(n).innerText()));
        expect(shown.map((s) => s.trim())).toEqual(names.map(() => label));
      },
      20_000,
      1000,
    );

  beforeAll(async () => {
    web = await startWebSystem({
      MONITOR_INTERVAL_MS: '2000',
      MONITOR_PING_TIMEOUT_MS: '300',
      MONITOR_PING_RETRIES: '1',
      // Only loopback may ever be pinged from this machine.
      MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
    });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('checks now, starts and stops monitoring from Settings, turning loopback equipment active', async () => {
    const room = await addRoom('Monitor Hall', 'M1');
    const projector = await addEquipment(room, 'Projector', 'inactive', '127.0.0.5');
    await addEquipment(room, 'Switch range', 'inactive', '127.0.0.5-9');

    await page.goto('/settings');
    expect(await page.getByRole('tab', { name: 'Monitoring' }).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('monitoring-state').getByText('Stopped').waitFor();
    expect(await page.getByTestId('monitoring-interval').innerText()).toBe('2 seconds');
    await page.getByText('equipment status is updated every 30 seconds').waitFor();
    await screenshot(page, 'settings-monitoring-stopped');

    await page.getByRole('button', { name: 'Check Now' }).click();
    await expectToast(page, 'Success', 'Equipment check completed');
    expect(await page.getByTestId('monitoring-state').innerText()).toContain('Stopped');
    await waitForStatus(room, ['Projector', 'Switch range'], 'Active');
    await page.getByRole('heading', { name: 'Equipment', exact: true }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 300);
    await screenshot(page, 'room-after-check');

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Start Monitoring' }).click();
    await expectToast(page, 'Success', 'Equipment monitoring started');
    await page.getByTestId('monitoring-state').getByText('Running').waitFor();
    expect(await api('GET', '/api/monitoring/status')).toEqual({ isRunning: true, interval: 2000 });
    await screenshot(page, 'settings-monitoring-running');

    // A running monitor corrects a status set by hand at its next sweep.
    await api('PUT', `/api/equipment/${projector.id}`, { name: 'Projector', status: 'inactive' });
    await waitForStatus(room, ['Projector'], 'Active');

    await page.goto('/settings');
    await page.getByRole('button', { name: 'Stop Monitoring' }).click();
    await expectToast(page, 'Success', 'Equipment monitoring stopped');
    await page.getByTestId('monitoring-state').getByText('Stopped').waitFor();
    expect(await api('GET', '/api/monitoring/status')).toEqual({ isRunning: false, interval: 2000 });

    // Polled every 5 seconds: a start from elsewhere shows without a reload (the limit leaves a
    // loaded machine room for a few polls).
    await api('POST', '/api/monitoring/start');
    await page.getByTestId('monitoring-state').getByText('Running').waitFor({ timeout: 30_000 });
    await api('POST', '/api/monitoring/stop');

    await page.getByRole('tab', { name: 'About' }).click();
    for (const line of [
      'Building and room management',
      'Equipment tracking with status monitoring',
      'Image uploads',
      'Automatic ping-based status checks',
      'A mobile-optimised interface',
    ])
      await page.getByText(line, { exact: true }).waitFor();
    await screenshot(page, 'settings-about');
  });

  it('shows the report tiles and the uptime bar, and downloads the uptime CSV', async () => {
    const room = await addRoom('Report Hall', 'R1');
    await addEquipment(room, 'Display', 'inactive');
    await addEquipment(room, 'Amp', 'maintenance');
    await addEquipment(room, 'Mic', 'active');
    const truth = await api<UptimeReport>('GET', '/api/reports/uptime');
    // Two buildings; the two loopback devices and the mic are active, the display inactive.
    expect(truth).toMatchObject({ buildings: 2, totalEquipment: 5, online: 3, offline: 1 });

    // The screen's report and the streamed CSV agree (the CSV is read a moment later).
    const served: UptimeReport[] = [];
    page.on('response', async (r) => {
      if (new URL(r.url()).pathname === '/api/reports/uptime' && r.ok()) served.push(await r.json());
    });
    await page.goto('/reports');
    const tiles = await textsOf(page.getByTestId('stat-tile'));
    expect(tiles.map((t) => t.replace(/\s+/g, ' '))).toEqual([
      'Buildings 2',
      'Total Equipment 5',
      'Online 3',
      'Offline 1',
    ]);
    expect(await page.getByTestId('system-uptime').innerText()).toBe('60.0%');
    expect(await page.getByRole('progressbar', { name: 'System Uptime' }).getAttribute('aria-valuenow')).toBe(
      '60',
    );
    await page.getByText('Online counts equipment whose status is Active').waitFor();
    await screenshot(page, 'reports');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download Uptime Report' }).click(),
    ]);
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    expect(download.suggestedFilename()).toBe(
      `equipment-uptime-report-${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}.csv`,
    );
    const lines = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    const [header, ...rows] = lines.map((line) => line.split(','));
    expect(header).toEqual([
      'Building',
      'Room',
      'Equipment Name',
      'Equipment Type',
      'IP Address',
      'Status',
      'Uptime %',
      'Uptime Hours',
      'Downtime Hours',
      'Last Updated',
    ]);
    expect(rows).toHaveLength(5);
    const byName = new Map(rows.map((r) => [r[2], r]));
    expect(byName.get('Display')?.slice(0, 8)).toEqual([
      'Report Hall',
      'R1',
      'Display',
      '',
      'N/A',
      'inactive',
      '0.0',
      '0.0',
    ]);
    // Maintenance is neither up nor down: no percentage.
    expect(byName.get('Amp')?.[6]).toBe('N/A');
    const projector = byName.get('Projector')!;
    expect(projector.slice(0, 6)).toEqual(['Monitor Hall', 'M1', 'Projector', '', '127.0.0.5', 'active']);
    // The CSV is read a moment after the screen's report, and uptime moves with the clock: it
    // lies between what the server answered before and after the download.
    const percentOf = (report: UptimeReport) =>
      report.equipment.find((e) => e.name === 'Projector')!.uptimePercent!;
    const after = await api<UptimeReport>('GET', '/api/reports/uptime');
    const [low, high] = [percentOf(served.at(-1)!), percentOf(after)].sort((a, b) => a - b);
    expect(Number(projector[6])).toBeGreaterThanOrEqual(Math.floor(low * 10) / 10);
    expect(Number(projector[6])).toBeLessThanOrEqual(Math.ceil(high * 10) / 10);
    expect(Number(projector[7]) + Number(projector[8])).toBeLessThan(1);
    for (const row of rows) expect(new Date(row[9]).toISOString()).toBe(row[9]);
  });

  it('creates, edits, deactivates and deletes a user as an administrator', async () => {
    await page.goto('/users');
    const card = (username: string) =>
      page
        .getByTestId('user-card')
        .filter({ has: page.getByRole('heading', { name: username, exact: true }) });
    await card(web.system.admin.username).getByText('Administrator').waitFor();

    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('dialog', { name: 'Add User' });
    await form.getByRole('button', { name: 'Create User' }).click();
    await form.getByText('Username is required').waitFor();
    expect(await form.getByText('Password is required').isVisible()).toBe(true);
    expect(await form.getByLabel('Email').getAttribute('type')).toBe('email');
    await form.getByLabel('Username *').fill('teacher1');
    await form.getByLabel('Password *').fill('first password 1');
    await form.getByLabel('Email').fill('Teacher1@College.edu');
    await form.getByLabel('First Name').fill('Ada');
    await form.getByLabel('Last Name').fill('Byron');
    expect(await form.getByLabel('Role').innerText()).toBe('User');
    expect(await form.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    await screenshot(page, 'user-form');
    await form.getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'User created', 'The user has been successfully created.');
    await card('teacher1').getByText('User', { exact: true }).waitFor();
    expect(await card('teacher1').innerText()).toContain('teacher1@college.edu');

    // The server refuses a taken username; the toast says so in its words.
    await page.getByRole('button', { name: 'Add user' }).click();
    await form.getByLabel('Username *').fill('teacher1');
    await form.getByLabel('Password *').fill('another password');
    await form.getByRole('button', { name: 'Create User' }).click();
    await expectToast(page, 'Error creating user', 'Username "teacher1" is already in use.', 'destructive');
    await form.getByRole('button', { name: 'Cancel' }).click();

    // A blank password keeps the current one and is not sent.
    const sent: string[] = [];
    page.on('request', (r) => r.method() === 'PUT' && sent.push(r.postData() ?? ''));
    await card('teacher1').getByRole('button', { name: 'Edit teacher1' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    expect(await edit.getByLabel('Password').inputValue()).toBe('');
    await edit.getByLabel('Last Name').fill('Lovelace');
    await edit.getByLabel('Role').click();
    await page.getByRole('option', { name: 'Administrator' }).click();
    await edit.getByRole('button', { name: 'Save User' }).click();
    await expectToast(page, 'User updated', 'The user has been successfully updated.');
    await card('teacher1').getByText('Administrator').waitFor();
    expect(JSON.parse(sent[0])).not.toHaveProperty('password');
    await signIn(web.system.url, 'teacher1', 'first password 1');

    await card('teacher1').getByRole('button', { name: 'Edit teacher1' }).click();
    await edit.getByRole('switch', { name: 'Active' }).click();
    await edit.getByRole('button', { name: 'Save User' }).click();
    await expectToast(page, 'User updated', 'The user has been successfully updated.');
    await card('teacher1').getByText('Inactive').waitFor();
    const users = await api<User[]>('GET', '/api/users');
    expect(users.find((u) => u.username === 'teacher1')).toMatchObject({
      lastName: 'Lovelace',
      role: 'admin',
      isActive: 0,
    });
    await screenshot(page, 'users');

    const dismissed = answerNextConfirm(page, false);
    await card('teacher1').getByRole('button', { name: 'Delete teacher1' }).click();
    expect(await dismissed).toBe('Are you sure you want to delete the user teacher1?');
    expect(await card('teacher1').count()).toBe(1);
    const accepted = answerNextConfirm(page, true);
    await card('teacher1').getByRole('button', { name: 'Delete teacher1' }).click();
    await accepted;
    await expectToast(page, 'User deleted', 'The user has been successfully deleted.');
    await card('teacher1').waitFor({ state: 'detached' });
    expect((await api<User[]>('GET', '/api/users')).map((u) => u.username)).not.toContain('teacher1');

    // The server keeps an administrator from deleting their own account; the toast says why.
    const self = web.system.admin.username;
    const ownDelete = answerNextConfirm(page, true);
    await card(self)
      .getByRole('button', { name: `Delete ${self}` })
      .click();
    await ownDelete;
    await expectToast(page, 'Error deleting user', authMessages.selfDelete, 'destructive');
    expect(await card(self).count()).toBe(1);
  });

  it('shows a user whom failed sign-ins hold back, and clears the lock as an administrator', async () => {
    const user = { username: 'forgetful', password: 'the right password' };
    await createUser(web.system.url, web.adminCookie, user);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${web.system.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: 'not it' }),
      });
      expect(res.status).toBe(401);
    }
    await page.goto('/users');
    const card = page
      .getByTestId('user-card')
      .filter({ has: page.getByRole('heading', { name: user.username, exact: true }) });
    await card.getByText('Sign-in locked').waitFor();
    await screenshot(page, 'users-sign-in-locked');

    const confirmed = answerNextConfirm(page, true);
    await card.getByRole('button', { name: `Clear sign-in lock of ${user.username}` }).click();
    expect(await confirmed).toBe(
      `Clear the sign-in lock of ${user.username}? They can try to sign in again at once.`,
    );
    await expectToast(page, 'Sign-in lock cleared', `${user.username} can sign in again.`);
    await card.getByText('Sign-in locked').waitFor({ state: 'detached' });
    const listed = await api<UserListItem[]>('GET', '/api/users');
    expect(listed.find((u) => u.username === user.username)).toMatchObject({ signInLocked: false });
    await signIn(web.system.url, user.username, user.password);
  });

  it('tells a user who is not an administrator that User Management is for administrators', async () => {
    const user = { username: 'plain-user', password: 'a long enough password' };
    await createUser(web.system.url, web.adminCookie, user);
    const other = await openPhone(web.browser, web.system.url);
    try {
      await signInThroughForm(other.page, user);
      await other.page.goto('/users');
      await other.page.getByRole('heading', { name: 'Administrators only' }).waitFor();
      await other.page.getByText('User Management is available to administrators only.').waitFor();
      await screenshot(other.page, 'users-as-user');
      expect(other.problems).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});
