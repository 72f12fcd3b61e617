import { type Building, type Equipment, type Fleet, type Room } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { PjlinkSimulator } from '@cm/simulators';
import { type Page } from 'playwright-core';
import { expectToast, screenshot, signedInPhonePerTest, startWebSystem, type WebSystem } from './browser';

const PASSWORD = 'lamp-room-7';
/** The simulator's maker and model, as the probe names them. */
const MODEL = 'EPSON EB-L1070U';
/** The monitor's first probe comes within the interval, then inventory records it: generous. */
const READING_DEADLINE_MS = 90_000;

describe('web app: device health beyond ping', () => {
  let web: WebSystem;
  let page: Page;
  let room: Room;
  let projector: PjlinkSimulator;
  /** The same model on newer firmware, healthy: the fleet view puts the ceiling projector behind it. */
  let rearProjector: PjlinkSimulator;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const equipmentNamed = async (name: string) =>
    (await api<Equipment[]>('GET', `/api/rooms/${room.id}/equipment`)).find((e) => e.name === name)!;
  const card = (name: string) => page.getByTestId('equipment-card').filter({ hasText: name });
  const openEdit = async (name: string) => {
    await card(name).click();
    await page
      .getByRole('dialog', { name: 'Equipment Details' })
      .getByRole('button', { name: 'Edit' })
      .click();
    return page.getByRole('dialog', { name: 'Edit Equipment' });
  };
  const save = async (form: ReturnType<Page['getByRole']>) => {
    await form.getByRole('button', { name: 'Save Equipment' }).click();
    await expectToast(page, 'Success', 'Equipment updated successfully');
    await form.waitFor({ state: 'detached' });
  };

  beforeAll(async () => {
    // A class 2 projector with a password, its lamp near the end of its life and a filter warning.
    projector = await PjlinkSimulator.start({
      host: '127.0.0.61',
      class: 2,
      password: PASSWORD,
      lamps: [{ hours: 2950, on: true }],
      firmware: '1.05',
      errors: { filter: 'warning' },
    });
    rearProjector = await PjlinkSimulator.start({
      host: '127.0.0.62',
      class: 2,
      lamps: [{ hours: 120, on: true }],
      firmware: '1.07',
    });
    web = await startWebSystem({ MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' });
    const building = await api<Building>('POST', '/api/buildings', { name: 'Probe Hall' });
    room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'P1',
      type: 'Lecture Hall',
      floor: '1',
    });
    await api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Ceiling Projector',
      ipAddress: '127.0.0.61',
    });
    await api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Rear Projector',
      ipAddress: '127.0.0.62',
      probe: { type: 'pjlink', port: rearProjector.port, intervalSeconds: 10 },
    });
  });
  afterAll(async () => {
    await web?.api('POST', '/api/monitoring/stop').catch(() => undefined);
    await web?.close();
    await projector?.close();
    await rearProjector?.close();
  });
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  it('sets a PJLink probe with its password, which is never shown and stays when left blank', async () => {
    await page.goto(`/rooms/${room.id}`);
    let form = await openEdit('Ceiling Projector');
    await form.getByLabel('Protocol').click();
    await page.getByRole('option', { name: 'PJLink' }).click();
    expect(await form.getByLabel('Port').getAttribute('placeholder')).toBe('4352');
    await form.getByLabel('Port').fill(String(projector.port));
    await form.getByLabel('Every (seconds)').fill('10');
    await form.getByLabel('PJLink password').fill(PASSWORD);
    await form.getByLabel('Lamp life (hours)').fill('3000');
    await screenshot(page, 'device-health-probe-form');
    await save(form);

    const saved = await equipmentNamed('Ceiling Projector');
    expect(saved.probe).toEqual({
      type: 'pjlink',
      port: projector.port,
      intervalSeconds: 10,
      lampRatedHours: 3000,
      secretsSet: ['password'],
    });
    expect(JSON.stringify(saved)).not.toContain(PASSWORD);

    form = await openEdit('Ceiling Projector');
    const password = form.getByLabel('PJLink password');
    expect(await password.inputValue()).toBe('');
    await form.getByText('Password set — leave blank to keep').waitFor();
    await form.getByLabel('Notes').fill('Left of the screen');
    await save(form);
    expect((await equipmentNamed('Ceiling Projector')).probe?.secretsSet).toEqual(['password']);
  });

  it('shows what the projector reports at 320 px: a fault chip, its lamp against rated life and its firmware', async () => {
    await api('POST', '/api/monitoring/start');
    const read = await eventually(
      async () => {
        const { health } = await equipmentNamed('Ceiling Projector');
        if (health?.firmware !== '1.05') throw new Error(`No reading yet: ${JSON.stringify(health)}`);
        return health;
      },
      READING_DEADLINE_MS,
      1000,
    );
    expect(read.state).toBe('warning');

    await page.setViewportSize({ width: 320, height: 720 });
    await page.goto(`/rooms/${room.id}`);
    await page.getByTestId('fault-chip').waitFor();
    expect(await card('Ceiling Projector').getByTestId('health-badge').innerText()).toBe('Warning');
    await card('Ceiling Projector').click();
    const details = page.getByRole('dialog', { name: 'Equipment Details' });
    const panel = details.getByTestId('health-panel');
    expect(await panel.getByTestId('health-badge').innerText()).toBe('Warning');
    expect(await panel.getByRole('list', { name: 'Reasons' }).getByRole('listitem').count()).toBeGreaterThan(
      0,
    );
    expect(
      await panel.getByRole('progressbar', { name: 'Lamp life used' }).getAttribute('aria-valuetext'),
    ).toBe('2,950 of 3,000 hours');
    await panel.getByText('1.05', { exact: true }).waitFor();
    await panel.getByText(/^PJLink, read /).waitFor();
    // Nothing wider than the phone: the dialog scrolls down, never sideways.
    const body = page.locator('body');
    expect(await body.evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(320);
    await screenshot(page, 'device-health-details-320');
  });

  it('Settings → Device Fleet lists the firmware versions per model and the projector behind the newest, at 390 and 320 px', async () => {
    await eventually(
      async () => {
        const model = (await api<Fleet>('GET', '/api/fleet')).models.find((m) => m.model === MODEL);
        if (model?.versions.length !== 2) throw new Error(`Not both read yet: ${JSON.stringify(model)}`);
      },
      READING_DEADLINE_MS,
      1000,
    );
    await page.goto('/settings');
    await page.getByRole('link', { name: /^Device Fleet/ }).click();
    await page.waitForURL('**/settings/fleet');
    const model = page.getByRole('group', { name: MODEL });
    expect(await model.getByText(/^Newest firmware:/).innerText()).toBe('Newest firmware: 1.07');
    expect(
      await model
        .getByRole('list', { name: `Firmware versions of ${MODEL}` })
        .getByRole('listitem')
        .allTextContents(),
    ).toEqual(['1.07newest1 device', '1.051 device']);
    await model.getByRole('heading', { name: 'Not on 1.07 (1 device)' }).waitFor();
    const behind = model.getByTestId('fleet-devices').getByRole('listitem');
    expect(await behind.count()).toBe(1);
    expect(await behind.getByRole('link', { name: 'Ceiling Projector' }).getAttribute('href')).toBe(
      `/rooms/${room.id}`,
    );
    expect(await behind.innerText()).toMatch(/P1 · Probe Hall[\s\S]*1\.05/);
    await screenshot(page, 'device-health-fleet-390');
    await page.setViewportSize({ width: 320, height: 720 });
    await screenshot(page, 'device-health-fleet-320');
  });

  it("the cards count the projector's warning as a fault, and the banner lists it with its reasons, at 390 and 320 px", async () => {
    await page.goto(`/buildings/${room.buildingId}/rooms`);
    expect(await page.getByTestId('room-card').getByTestId('fault-chip').innerText()).toBe('1 fault');
    await screenshot(page, 'device-health-rooms-faults-390');
    await page.setViewportSize({ width: 320, height: 720 });
    await page.goto('/');
    const building = page.getByTestId('building-card').filter({ hasText: 'Probe Hall' });
    expect(await building.getByTestId('fault-chip').innerText()).toBe('1 fault');
    await screenshot(page, 'device-health-buildings-faults-320');
    await page.getByRole('button', { name: '1 device needs attention in 1 room · 1 fault' }).click();
    const dialog = page.getByRole('dialog', { name: 'Needs attention' });
    expect(await dialog.getByTestId('problem-list').count()).toBe(0);
    const faults = dialog.getByRole('region', { name: 'Faults' });
    expect(await faults.getByRole('link', { name: /P1 · Floor 1/ }).getAttribute('href')).toBe(
      `/rooms/${room.id}`,
    );
    const device = faults.getByTestId('fault-device');
    expect(await device.count()).toBe(1);
    expect(await device.innerText()).toMatch(/^Ceiling Projector/);
    expect(await device.getByTestId('health-badge').innerText()).toBe('Warning');
    expect(
      await device.getByRole('list', { name: 'Reasons for Ceiling Projector' }).getByRole('listitem').count(),
    ).toBeGreaterThan(0);
    expect(await device.innerText()).toMatch(/127\.0\.0\.61\s*for /);
    await screenshot(page, 'device-health-banner-faults-320');
  });

  it('clears the password with Clear: the projector then refuses the probe, and the details say so', async () => {
    await page.goto(`/rooms/${room.id}`);
    const form = await openEdit('Ceiling Projector');
    await form.getByText('Password set — leave blank to keep').waitFor();
    await form.getByRole('button', { name: 'Clear password' }).click();
    await form.getByText('Password will be removed when you save.').waitFor();
    await save(form);
    expect((await equipmentNamed('Ceiling Projector')).probe?.secretsSet).toEqual([]);

    await eventually(
      async () => {
        const { health } = await equipmentNamed('Ceiling Projector');
        if (health?.state !== 'error') throw new Error(`Not refused yet: ${JSON.stringify(health)}`);
      },
      READING_DEADLINE_MS,
      1000,
    );
    await page.reload();
    await card('Ceiling Projector').click();
    const panel = page.getByRole('dialog', { name: 'Equipment Details' }).getByTestId('health-panel');
    expect(await panel.getByTestId('health-badge').innerText()).toBe('Error');
    expect((await panel.getByRole('list', { name: 'Reasons' }).innerText()).toLowerCase()).toContain(
      'password',
    );

    // The banner lists the refused probe as an error among the faults.
    await page.goto('/');
    await page.getByRole('button', { name: /· 1 fault$/ }).click();
    const fault = page.getByRole('dialog', { name: 'Needs attention' }).getByTestId('fault-device');
    expect(await fault.getByTestId('health-badge').innerText()).toBe('Error');
    expect((await fault.innerText()).toLowerCase()).toContain('password');
  });
});
