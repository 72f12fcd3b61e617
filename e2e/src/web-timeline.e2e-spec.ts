import {
  type Building,
  type Equipment,
  type EquipmentHistory,
  type MonitoringCheckResult,
  type Room,
} from '@cm/contracts';
import { testDatabaseUrl } from '@cm/platform/testing';
import { Client } from 'pg';
import { type Page } from 'playwright-core';
import { screenshot, signedInPhonePerTest, startWebSystem, textsOf, type WebSystem } from './browser';

const DAY = 86_400_000;

/**
 * A system of its own: Check Now pings every device with an address, which would change the
 * statuses other files arrange on the shared system.
 */
describe('web app: equipment timeline', () => {
  let web: WebSystem;
  let page: Page;
  let room: Room;
  let lectern: Equipment;
  let spare: Equipment;

  /**
   * Thirty days of history, as the status history stores it (runs of one status): what weeks of
   * monitoring would have left, which a test cannot wait for.
   */
  const seedHistory = async (equipment: Equipment, runs: [status: string, daysAgo: number][]) => {
    const s = `"${web.system.namespace}_inventory"`;
    const now = Date.now();
    const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
    const db = new Client({ connectionString: testDatabaseUrl });
    await db.connect();
    try {
      await db.query('BEGIN');
      await db.query(`DELETE FROM ${s}.status_spans WHERE equipment_id = $1`, [equipment.id]);
      for (const [i, [status, daysAgo]] of runs.entries()) {
        const next = runs[i + 1];
        await db.query(
          `INSERT INTO ${s}.status_spans (equipment_id, started_at, ended_at, status) VALUES ($1, $2, $3, $4)`,
          [equipment.id, at(daysAgo), next ? at(next[1]) : null, status],
        );
      }
      const [status, daysAgo] = runs.at(-1)!;
      await db.query(
        `UPDATE ${s}.equipment_state
            SET span_started_at = $2, span_status = $3, status_at = $2,
                recent = ARRAY[(extract(epoch FROM $2::timestamptz) * 1000)::bigint]
          WHERE equipment_id = $1`,
        [equipment.id, at(daysAgo), status],
      );
      await db.query('COMMIT');
    } finally {
      await db.end();
    }
  };

  beforeAll(async () => {
    web = await startWebSystem({ MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8' });
    const building = await web.api<Building>('POST', '/api/buildings', { name: 'Timeline Hall' });
    room = await web.api<Room>('POST', `/api/buildings/${building.id}/rooms`, {
      name: 'T201',
      type: 'Lecture Hall',
      floor: '2',
    });
    // Loopback answers the monitor's pings.
    lectern = await web.api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, {
      name: 'Lectern PC',
      ipAddress: '127.0.0.1',
    });
    spare = await web.api<Equipment>('POST', `/api/rooms/${room.id}/equipment`, { name: 'Spare Mic' });
    await seedHistory(lectern, [
      ['active', 26],
      ['inactive', 12],
      ['active', 10],
      ['maintenance', 6],
      ['partial', 4],
      ['active', 3.5],
    ]);
    const check = await web.api<MonitoringCheckResult>('POST', '/api/monitoring/check');
    expect(check).toMatchObject({ completed: true, answered: 1 });
  });
  afterAll(() => web?.close());
  signedInPhonePerTest(
    () => web,
    (phone) => (page = phone.page),
  );

  const openDetails = async (name: string) => {
    await page.goto(`/rooms/${room.id}`);
    await page.getByTestId('equipment-card').filter({ hasText: name }).click();
    const dialog = page.getByRole('dialog', { name: 'Equipment Details' });
    await dialog.getByTestId('timeline-figures').waitFor();
    return dialog;
  };

  it("shows the last check, its round trip, the loss, the uptime and a strip of the month's statuses", async () => {
    const dialog = await openDetails('Lectern PC');
    const history = await web.api<EquipmentHistory>('GET', `/api/equipment/${lectern.id}/history`);
    expect(history.summary.lastCheckedAt).not.toBeNull();

    const figures = await textsOf(dialog.getByTestId('timeline-figures').locator('dd'));
    expect(figures).toEqual([
      expect.stringMatching(/^(just now|\d+ min ago)$/),
      expect.stringMatching(/^\d+\.\d ms$/),
      '0.0 % (0 of 1 ping)',
      // Its history begins within the 30 days: the figure says over how long.
      expect.stringMatching(
        new RegExp(
          `^${history.summary.uptime.percent!.toFixed(1).replace('.', '\\.')} % over \\d+ d( \\d+ h)?$`,
        ),
      ),
    ]);
    expect(await dialog.getByTestId('timeline-figures').locator('dt').last().innerText()).toBe('Uptime');
    // Up 14 + 4 + 3.5 days, down 2 + 0.5: maintenance counts as neither.
    expect(history.summary.uptime.percent).toBe(89.6);
    const checked = dialog.getByTestId('timeline-figures').locator('time');
    expect(await checked.getAttribute('datetime')).toBe(history.summary.lastCheckedAt);
    expect(await checked.getAttribute('title')).toMatch(/\d/);

    const strip = dialog.getByRole('list', { name: 'Status over the last 30 days' });
    const runs = strip.getByRole('listitem');
    expect(await runs.evaluateAll((items) => items.map((li) => li.getAttribute('data-status')))).toEqual([
      'none',
      'active',
      'inactive',
      'active',
      'maintenance',
      'partial',
      'active',
    ]);
    expect(await runs.nth(2).getAttribute('title')).toMatch(/^Inactive from .+ to .+ \(2 d\)$/);
    // The strip is as wide as the dialog allows, and its runs share that width by their length.
    const box = (await strip.boundingBox())!;
    expect(box.width).toBeGreaterThan(250);
    expect(box.width).toBeLessThanOrEqual(390);
    const widths = await runs.evaluateAll((items) => items.map((li) => li.getBoundingClientRect().width));
    expect(widths[2] / box.width).toBeCloseTo(2 / 30, 2);
    await screenshot(page, 'equipment-timeline');
    // The narrowest phone the app supports: the figures wrap, the strip narrows, nothing overflows.
    await page.setViewportSize({ width: 320, height: 700 });
    expect((await strip.boundingBox())!.width).toBeLessThan(300);
    await screenshot(page, 'equipment-timeline-320');
  });

  it('says what it does not know yet for equipment the monitor does not check', async () => {
    const dialog = await openDetails('Spare Mic');
    expect(await textsOf(dialog.getByTestId('timeline-figures').locator('dd'))).toEqual([
      'Not checked yet',
      'Not checked yet',
      'No checks in the last 24 hours',
      // Added moments ago: its uptime is of that time.
      expect.stringMatching(/^100\.0 % over (its first minute|\d+ min)$/),
    ]);
    const runs = dialog.getByRole('list', { name: 'Status over the last 30 days' }).getByRole('listitem');
    expect(await runs.evaluateAll((items) => items.map((li) => li.getAttribute('data-status')))).toEqual([
      'none',
      'active',
    ]);
    expect(spare.ipAddress).toBeNull();
  });
});
