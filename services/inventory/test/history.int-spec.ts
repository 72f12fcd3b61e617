import { randomUUID } from 'node:crypto';
import { type Equipment, ErrorCode, events, messages, type StatusEvent } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { eventually, testNatsUrl } from '@cm/platform/testing';
import { failureOf, inventoryUnderTest, setHistory, sql } from './support';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const utcHour = (ms: number) => ms - (ms % HOUR);
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('inventory equipment history', () => {
  const inventory = inventoryUnderTest();
  const { make, send } = inventory;
  const history = (id: string, range: { from?: string; to?: string } = {}) =>
    send(messages.inventory.equipmentHistory, { id, ...range });
  let roomId: string;

  beforeAll(async () => {
    const building = await make.building({ name: 'Hall' });
    roomId = (await make.room(building.id, { name: 'Lab' })).id;
  });

  it('cuts the spans to the window and gives the uptime report its figure for the same window', async () => {
    const flappy = await make.equipment(roomId, { name: 'Flappy' });
    const asOf = Date.now() - 60_000;
    const hoursAgo = (h: number) => new Date(asOf - h * HOUR);
    await setHistory(inventory.sut, flappy.id, [
      ['active', hoursAgo(800)],
      ['inactive', hoursAgo(360)],
      ['maintenance', hoursAgo(300)],
      ['partial', hoursAgo(200)],
      ['active', hoursAgo(120)],
      ['inactive', hoursAgo(0.5)],
    ]);
    const from = new Date(asOf - 720 * HOUR).toISOString();
    const to = new Date(asOf).toISOString();

    const reply = await history(flappy.id, { from, to });
    expect(reply.spans).toEqual([
      { start: from, end: hoursAgo(360).toISOString(), status: 'active' },
      { start: hoursAgo(360).toISOString(), end: hoursAgo(300).toISOString(), status: 'inactive' },
      { start: hoursAgo(300).toISOString(), end: hoursAgo(200).toISOString(), status: 'maintenance' },
      { start: hoursAgo(200).toISOString(), end: hoursAgo(120).toISOString(), status: 'partial' },
      { start: hoursAgo(120).toISOString(), end: hoursAgo(0.5).toISOString(), status: 'active' },
      // The open span ends with the window.
      { start: hoursAgo(0.5).toISOString(), end: to, status: 'inactive' },
    ]);

    const page = await send(messages.inventory.report, { asOf: to, limit: 1000 });
    const line = page.items.find((item) => item.equipmentId === flappy.id)!;
    expect(line.uptimePercent).not.toBeNull();
    expect(reply.summary.uptime).toEqual({
      percent: line.uptimePercent,
      upHours: line.uptimeHours,
      downHours: line.downtimeHours,
    });
    // 360 + 119.5 hours up, 60 + 80 + 0.5 down: maintenance is neither.
    expect(reply.summary.uptime).toEqual({ percent: 77.3, upHours: 479.5, downHours: 140.5 });
  });

  it('defaults to the last 30 days, and ends the open span now', async () => {
    const steady = await make.equipment(roomId, { name: 'Steady' });
    const before = Date.now();
    const reply = await history(steady.id);
    const after = Date.now();
    const to = Date.parse(reply.to);
    expect(to).toBeGreaterThanOrEqual(before);
    expect(to).toBeLessThanOrEqual(after);
    expect(Date.parse(reply.from)).toBe(to - 30 * DAY);
    // Created just now: one span, from its creation to now, all of it up.
    expect(reply.spans).toHaveLength(1);
    expect(reply.spans[0].status).toBe('active');
    expect(reply.summary).toMatchObject({
      status: 'active',
      lastCheckedAt: null,
      lastRttMs: null,
      loss24h: { pings: 0, unanswered: 0, percent: null },
      uptime: { percent: 100, downHours: 0 },
    });
    expect(reply.hours).toEqual([]);
    expect(reply.days).toEqual([]);
  });

  it('counts the checks the monitor sends by hour, and reckons the 24-hour loss from them', async () => {
    const device = await make.equipment(roomId, { name: 'Switch', ipAddress: '127.0.0.1-3' });
    const now = Date.now();
    await setHistory(inventory.sut, device.id, [['active', new Date(now - 2 * DAY)]]);
    // An hour that began 24 hours before the current one: outside the loss, inside the window.
    const old = utcHour(now) - 24 * HOUR;
    await sql(
      inventory.sut,
      `INSERT INTO inv.status_hours (equipment_id, hour, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum)
       VALUES ($1, $2, 100, 0, 300, 0, NULL, NULL, 0)`,
      [device.id, new Date(old)],
    );
    const previous = utcHour(now) - 30 * 60_000;
    const current = Math.max(utcHour(now), now - 1000);
    const monitor = await JetStreamConnection.connect({
      namespace: inventory.namespace,
      servers: testNatsUrl,
      name: 'monitor-test',
      timeoutMs: 5000,
    });
    const check = (at: number, alive: boolean[], rttMs: number | null): StatusEvent => ({
      eventId: randomUUID(),
      equipmentId: device.id,
      sweepId: randomUUID().slice(0, 18),
      status: alive.every(Boolean) ? 'active' : alive.some(Boolean) ? 'partial' : 'inactive',
      checkedAt: new Date(at).toISOString(),
      rttMs,
      results: alive.map((a, i) => ({ address: `127.0.0.${i + 1}`, alive: a, rttMs: a ? rttMs : null })),
    });
    try {
      for (const event of [check(previous, [true, false, false], 2), check(current, [true, true, true], 4)])
        await monitor.publish(events.statusChecked, event, { msgId: event.eventId });
    } finally {
      await monitor.close();
    }

    const reply = await eventually(async () => {
      const r = await history(device.id);
      expect(r.summary.lastCheckedAt).toBe(new Date(current).toISOString());
      return r;
    });
    expect(reply.summary).toMatchObject({
      status: 'active',
      lastRttMs: 4,
      // 2 of 6 pings unanswered; the 300 of the older hour are not counted.
      loss24h: { pings: 6, unanswered: 2, percent: 33.3 },
    });
    const counts = (hour: number, checks: number, pings: number, pingsAnswered: number, rtt: number) => ({
      hour: new Date(hour).toISOString(),
      checks,
      answered: checks,
      pings,
      pingsAnswered,
      rttMinMs: rtt,
      rttMaxMs: rtt,
      rttAvgMs: rtt,
    });
    expect(reply.hours).toEqual([
      { ...counts(old, 100, 300, 0, 0), answered: 0, rttMinMs: null, rttMaxMs: null, rttAvgMs: null },
      counts(utcHour(previous), 1, 3, 1, 2),
      counts(utcHour(current), 1, 3, 3, 4),
    ]);
    // The previous hour was written out when the current one began; the current one is on the state row.
    const stored = await sql<{ hour: Date }>(
      inventory.sut,
      'SELECT hour FROM inv.status_hours WHERE equipment_id = $1 ORDER BY hour',
      [device.id],
    );
    expect(stored.map((r) => r.hour.getTime())).toEqual([old, utcHour(previous)]);
  });

  it('gives day counters for the days whose hours are no longer kept', async () => {
    const device = await make.equipment(roomId, { name: 'Display' });
    const now = Date.now();
    const day = utcDay(now - 40 * DAY);
    await sql(
      inventory.sut,
      `INSERT INTO inv.status_days (equipment_id, day, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum)
       VALUES ($1, $2, 2880, 2000, 2880, 2000, 0.5, 3, 2000)`,
      [device.id, day],
    );
    // Older than the 7 days of hours kept, not yet pruned: its day row stands for it.
    await sql(
      inventory.sut,
      `INSERT INTO inv.status_hours (equipment_id, hour, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum)
       VALUES ($1, $2, 120, 120, 120, 120, 1, 1, 120)`,
      [device.id, new Date(utcHour(now - 10 * DAY))],
    );
    const reply = await history(device.id, { from: new Date(now - 45 * DAY).toISOString() });
    expect(reply.hoursFrom).toBe(new Date(Date.parse(utcDay(now - 7 * DAY)) + DAY).toISOString());
    expect(reply.days).toEqual([
      {
        day,
        checks: 2880,
        answered: 2000,
        pings: 2880,
        pingsAnswered: 2000,
        rttMinMs: 0.5,
        rttMaxMs: 3,
        rttAvgMs: 1,
      },
    ]);
    expect(reply.hours).toEqual([]);
  });

  it('answers EQUIPMENT_NOT_FOUND for unknown equipment', async () => {
    expect(await failureOf(history(randomUUID()))).toMatchObject({
      code: ErrorCode.EQUIPMENT_NOT_FOUND,
      message: expect.stringContaining('No equipment with id'),
    });
  });

  it.each([
    [{ from: '2026-11-10T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'to must be later than from'],
    [{ from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }, 'to must be later than from'],
    [{ from: '2026-01-01', to: '2026-11-01' }, 'is longer than 90 days: ask for a shorter one'],
    [{ from: 'last week' }, 'from must be an ISO 8601 date or date and time'],
  ])('refuses the range %j: %s', async (range, message) => {
    const equipment: Equipment = await make.equipment(roomId, { name: 'Any' });
    const error = await failureOf(history(equipment.id, range));
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(JSON.stringify(error)).toContain(message);
  });
});
