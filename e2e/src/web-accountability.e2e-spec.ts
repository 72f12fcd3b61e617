import { type Building, type Room } from '@cm/contracts';
import { type Page } from 'playwright-core';
import { answerNextConfirm, expectToast, onSharedSystem, screenshot, type WebSystem } from './browser';

describe('web app: API tokens, recent changes and the password rule', () => {
  let web: WebSystem;
  let page: Page;
  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const withToken = (token: string) =>
    fetch(`${web.system.url}/api/buildings`, { headers: { authorization: `Bearer ${token}` } });

  it('creates an API token shown once, which a script then uses, and revokes it', async () => {
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'API Tokens' }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name *').fill('Nightly export');
    await screenshot(page, 'api-token-form');
    await dialog.getByRole('button', { name: 'Create Token' }).click();
    const shown = page.getByTestId('api-token-value');
    const token = (await shown.innerText()).trim();
    expect(token).toMatch(/^cm_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy token' }).waitFor();
    await screenshot(page, 'api-token-once');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });

    expect((await withToken(token)).status).toBe(200);
    await page.reload();
    await page.getByRole('tab', { name: 'API Tokens' }).click();
    const card = page.getByTestId('api-token').filter({ hasText: 'Nightly export' });
    await card.waitFor();
    expect(await card.getByTestId('token-last-used').innerText()).not.toBe('Never');
    expect(await page.content()).not.toContain(token);
    await screenshot(page, 'api-tokens-list');

    const asked = answerNextConfirm(page, true);
    await card.getByRole('button', { name: 'Revoke Nightly export' }).click();
    expect(await asked).toBe('Revoke the API token Nightly export? Programs using it stop working at once.');
    await expectToast(page, 'Token revoked', 'Nightly export no longer works.');
    await card.waitFor({ state: 'detached' });
    expect((await withToken(token)).status).toBe(401);
  });

  it("shows a room's recent changes to an administrator, field by field", async () => {
    const building = await api<Building>('POST', '/api/buildings', { name: 'Audit Wing' });
    const room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'Seminar 1',
      type: 'Classroom',
      floor: '1',
    });
    await api('PUT', `/api/rooms/${room.id}`, { name: 'Seminar 2' });
    await page.goto(`/rooms/${room.id}`);
    const entries = page.getByTestId('audit-entry');
    await entries.first().waitFor();
    expect(await entries.first().innerText()).toContain('name: Seminar 1 → Seminar 2');
    expect(await entries.nth(1).innerText()).toContain(`Created by ${web.system.admin.username}`);
    await screenshot(page, 'room-recent-changes');
  });

  it("refuses a common password in the user form with the server's reason", async () => {
    await page.goto('/users');
    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('dialog', { name: 'Add User' });
    await form.getByLabel('Username *').fill('common-pat');
    await form.getByLabel('Password *').fill('short one');
    await form.getByRole('button', { name: 'Create User' }).click();
    await form.getByText('Password must be at least 12 characters').waitFor();
    await form.getByLabel('Password *').fill('qwerty123456');
    await form.getByRole('button', { name: 'Create User' }).click();
    await expectToast(
      page,
      'Error creating user',
      'This password is one of the 10,000 most common passwords. Choose a less common one.',
      'destructive',
    );
  });
});
