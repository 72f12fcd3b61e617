import { type Building, type Room, type RoomCheckResult } from '@cm/contracts';
import { eventually } from '@cm/platform/testing';
import { PjlinkSimulator } from '@cm/simulators';
import { type Page } from 'playwright-core';
import { onSharedSystem, screenshot, type WebSystem } from './browser';

/** "Check this room now" on the room screen, against a simulated projector on loopback. */
describe('web app: check this room now', () => {
  let web: WebSystem;
  let page: Page;
  let room: Room;
  let projector: PjlinkSimulator;
  const api: WebSystem['api'] = (method, path, body) => web.api(method, path, body);
  const card = (name: string) => page.getByTestId('equipment-card').filter({ hasText: name });
  const checkedAgo = (name: string) => card(name).getByTestId('checked-ago').innerText();
  const roomResult = () =>
    page
      .getByRole('status')
      .filter({ hasText: /^Checked 2 equipment/ })
      .innerText();

  /**
   * The room screen once its projector was checked; then Check this room now while the projector
   * takes the connection and says nothing: the answer comes at once, the projector "Checking...".
   * `whileHeld` looks at the screen before the projector is let go.
   */
  const checkWhileProjectorHolds = async (whileHeld: () => Promise<void> = async () => {}) => {
    await page.goto(`/rooms/${room.id}`);
    await eventually(async () => expect(await checkedAgo('Projector')).toMatch(/^Checked /));
    const release = projector.holdAnswers();
    try {
      await page.getByRole('button', { name: 'Check this room now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Checked 2 equipment/ })
        .waitFor();
      expect(await roomResult()).toBe('Checked 2 equipment: 2 answered, 1 still being checked');
      expect(await checkedAgo('Projector')).toBe('Checking...');
      await whileHeld();
    } finally {
      release();
    }
  };

  onSharedSystem(
    (w) => (web = w),
    (p) => (page = p),
  );

  beforeAll(async () => {
    projector = await PjlinkSimulator.start({
      host: '127.0.37.1',
      class: 2,
      lamps: [{ hours: 900, on: true }],
      errors: { filter: 'warning' },
    });
    const building = await api<Building>('POST', '/api/buildings', { name: 'Check Hall' });
    room = await api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'C-104',
      type: 'Classroom',
      floor: '1',
    });
    await api('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Projector',
      ipAddress: '127.0.37.1',
      probe: { type: 'pjlink', port: projector.port, intervalSeconds: 3600 },
    });
    await api('POST', `/api/rooms/${room.id}/equipment`, { name: 'Display', ipAddress: '127.0.37.2' });
    await api('POST', `/api/rooms/${room.id}/equipment`, { name: 'Whiteboard' });
  });
  afterAll(() => projector?.close());

  it('is refused for a room that does not exist', async () => {
    await expect(api('POST', '/api/rooms/00000000-0000-4000-8000-000000000000/check')).rejects.toThrow(
      /answered 404/,
    );
  });

  it('checks only this room at 390 × 844, with monitoring stopped: the result, each card checked seconds ago, the probe read', async () => {
    // The monitor hears of the new probe settings shortly after they are saved.
    await eventually(async () => {
      const result = await api<RoomCheckResult>('POST', `/api/rooms/${room.id}/check`);
      expect(result.equipment.find((e) => e.probe)?.probe).toMatchObject({ outcome: 'answered' });
    });
    expect((await api<{ isRunning: boolean }>('GET', '/api/monitoring/status')).isRunning).toBe(false);

    await page.goto(`/rooms/${room.id}`);
    const button = page.getByRole('button', { name: 'Check this room now' });
    await button.click();
    const result = page.getByRole('status').filter({ hasText: /^Checked 2 equipment/ });
    expect(await result.innerText()).toBe('Checked 2 equipment: 2 answered');
    await eventually(async () =>
      expect(await card('Projector').getByTestId('checked-ago').innerText()).toMatch(/^Checked \d+ s ago$/),
    );
    expect(await card('Display').getByTestId('checked-ago').innerText()).toMatch(/^Checked \d+ s ago$/);
    // No address: nothing to check, and the card says nothing of checks.
    expect(await card('Whiteboard').getByTestId('checked-ago').count()).toBe(0);
    // The deep probe's reading is recorded before the answer: the filter warning is on the card.
    expect(await card('Projector').getByTestId('health-badge').innerText()).toBe('Warning');
    await screenshot(page, 'room-check-390');
  });

  it('answers at once while the projector holds its reply, says "Checking..." on its card, and fills it in when the reply comes', async () => {
    await checkWhileProjectorHolds(async () => {
      expect(await checkedAgo('Display')).toMatch(/^Checked \d+ s ago$/);
      await screenshot(page, 'room-check-390-checking');
    });
    // Its reply arrives on the live stream: the card and the message fill in, no reload.
    await eventually(async () => expect(await checkedAgo('Projector')).toMatch(/^Checked \d+ s ago$/));
    expect(await roomResult()).toBe('Checked 2 equipment: 2 answered');
    expect(await card('Projector').getByTestId('health-badge').innerText()).toBe('Warning');
  });

  it('does not leave a card on "Checking..." when its late result never arrives (the live stream cut): the screen reads the recorded result', async () => {
    // The live stream is cut: the room.checked event of this check never reaches the page.
    await page.route('**/api/events', (route) => route.abort('connectionreset'));
    await checkWhileProjectorHolds();
    // No event comes; the screen reads what the monitor recorded, and the card says when.
    await eventually(
      async () => expect(await checkedAgo('Projector')).toMatch(/^Checked \d+ s ago$/),
      30_000,
    );
    expect(await roomResult()).toBe('Checked 2 equipment: 2 answered');
    expect(await card('Projector').getByTestId('health-badge').innerText()).toBe('Warning');
    await page.unroute('**/api/events');
  });
});
