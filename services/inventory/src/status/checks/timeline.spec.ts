import { type EquipmentStatus } from '@cm/contracts';
import {
  type Counters,
  daysOf,
  type DeviceTimeline,
  HOUR_MS,
  type HourStats,
  loss24h,
  type Observation,
  observe,
  paint,
  RECENT_LIMIT,
  type Span,
  spanChanges,
  utcDay,
  utcHour,
} from './timeline';

const T0 = Date.parse('2026-11-20T23:00:00.000Z');
const statuses: EquipmentStatus[] = ['active', 'inactive', 'partial', 'maintenance'];

/** A device created at T0 with status active, as the insert trigger leaves it. */
function created(): DeviceTimeline {
  return {
    state: {
      equipmentId: 'e',
      status: 'active',
      statusAt: T0,
      lastCheckedAt: null,
      lastRttMs: null,
      lastSweepId: null,
      recent: [T0],
      hour: null,
    },
    spans: [{ start: T0, end: Infinity, status: 'active' }],
    hourDeltas: new Map(),
  };
}

/** Seeded, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Up {
  up: number;
  down: number;
}

/** The straightforward way: sort every observation; each holds until the next one. */
function uptimeOfObservations(
  observations: { at: number; status: EquipmentStatus }[],
  from: number,
  to: number,
): Up {
  const sorted = [...observations].sort((a, b) => a.at - b.at);
  const out = { up: 0, down: 0 };
  sorted.forEach((o, i) => {
    const end = Math.min(sorted[i + 1]?.at ?? to, to);
    const start = Math.max(o.at, from);
    if (end <= start) return;
    if (o.status === 'active') out.up += end - start;
    else if (o.status !== 'maintenance') out.down += end - start;
  });
  return out;
}

/** The report's way: spans cut to the window. */
function uptimeOfSpans(spans: Span[], from: number, to: number): Up {
  const out = { up: 0, down: 0 };
  for (const s of spans) {
    const length = Math.min(s.end, to) - Math.max(s.start, from);
    if (length <= 0) continue;
    if (s.status === 'active') out.up += length;
    else if (s.status !== 'maintenance') out.down += length;
  }
  return out;
}

/** A sweep every 30 s (with jitter) and runs of one status, as a real device has. */
function checksOf(next: () => number, count: number): Observation[] {
  const checks: Observation[] = [];
  let status: EquipmentStatus = 'active';
  for (let i = 0; i < count; i++) {
    if (next() < 0.15) status = statuses[Math.floor(next() * 3)];
    const answered = status === 'active';
    checks.push({
      at: T0 + 30_000 * (i + 1) + Math.floor(next() * 5000),
      status,
      sweepId: `s${i}`,
      rttMs: answered ? 0.2 + next() : null,
      pings: 1,
      pingsAnswered: answered ? 1 : 0,
    });
  }
  return checks;
}

/** Delays some checks by up to `maxDelay` positions and delivers some twice. */
function arrivalOrder(next: () => number, checks: Observation[], maxDelay: number): Observation[] {
  const keyed = checks.map((c, i) => ({ c, key: i + (next() < 0.2 ? next() * maxDelay : 0) }));
  for (const [i, c] of checks.entries()) if (next() < 0.1) keyed.push({ c, key: i + next() * maxDelay });
  return keyed.sort((a, b) => a.key - b.key).map((k) => k.c);
}

describe('status timeline', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'gives the same uptime as the checks themselves, however late (within the kept window) or often they arrive (seed %i)',
    (seed) => {
      const next = random(seed);
      const checks = checksOf(next, 400);
      const device = created();
      for (const o of arrivalOrder(next, checks, RECENT_LIMIT - 2)) observe(device, o);

      const truth = [{ at: T0, status: 'active' as EquipmentStatus }, ...checks];
      const to = checks.at(-1)!.at + 60_000;
      for (const from of [T0 - 1000, T0 + 3_600_000, checks[200].at, checks[200].at + 1]) {
        expect(uptimeOfSpans(device.spans, from, to)).toEqual(uptimeOfObservations(truth, from, to));
      }
      // Runs of one status are one span each, and they tile the time from creation on.
      device.spans.forEach((s, i) => {
        if (i > 0) expect(s.start).toBe(device.spans[i - 1].end);
        if (i > 0) expect(s.status).not.toBe(device.spans[i - 1].status);
      });
      expect(device.state.status).toBe(checks.at(-1)!.status);
      expect(device.state.lastCheckedAt).toBe(checks.at(-1)!.at);
      expect(device.state.lastRttMs).toBe(checks.at(-1)!.rttMs);
    },
  );

  /** The counters each period should hold: those of the checks in it, each counted once. */
  const expectCounted = (
    checks: Observation[],
    periods: Map<unknown, Counters>,
    periodOf: (at: number) => unknown,
  ) => {
    for (const [period, stats] of periods) {
      const ofPeriod = checks.filter((c) => periodOf(c.at) === period);
      const rtts = ofPeriod.flatMap((c) => (c.rttMs === null ? [] : [c.rttMs!]));
      expect(stats).toMatchObject({
        checks: ofPeriod.length,
        answered: rtts.length,
        pings: ofPeriod.length,
        pingsAnswered: rtts.length,
        rttMin: Math.min(...rtts),
        rttMax: Math.max(...rtts),
      });
      expect(stats.rttSum).toBeCloseTo(
        rtts.reduce((a, b) => a + b, 0),
        9,
      );
    }
  };

  it('counts each check once per UTC day, however often it is delivered', () => {
    const next = random(42);
    const checks = checksOf(next, 300); // 2.5 hours from 23:00: two days
    const device = created();
    for (const o of arrivalOrder(next, checks, 10)) observe(device, o);
    // A day is what its hours add up to: those written out, and the state's current one.
    const days = new Map<string, Counters>(
      daysOf([...device.hourDeltas.values(), device.state.hour!]).map((d) => [d.day, d]),
    );
    expectCounted(checks, days, utcDay);
    expect([...days.keys()].sort()).toEqual(['2026-11-20', '2026-11-21']);
  });

  it('counts each check once in its UTC hour, a late one in its own hour, however often it is delivered', () => {
    const next = random(7);
    const checks = checksOf(next, 300); // 2.5 hours from 23:00: three hours
    const device = created();
    for (const o of arrivalOrder(next, checks, 10)) observe(device, o);
    const hours = new Map<number, Counters>(device.hourDeltas);
    hours.set(device.state.hour!.hour, device.state.hour!);
    expect([...hours.keys()].sort((a, b) => a - b)).toEqual([T0, T0 + HOUR_MS, T0 + 2 * HOUR_MS]);
    expectCounted(checks, hours, utcHour);
    // The state keeps the newest hour; the others are what the repository adds to the stored rows.
    expect(device.state.hour!.hour).toBe(T0 + 2 * HOUR_MS);
  });

  it('adds a check that comes after its hour was written out to that hour, not to the current one', () => {
    const device = created();
    observe(device, {
      at: T0 + 10_000,
      status: 'active',
      sweepId: 'a',
      rttMs: 1,
      pings: 2,
      pingsAnswered: 2,
    });
    observe(device, {
      at: T0 + HOUR_MS + 10_000,
      status: 'active',
      sweepId: 'c',
      rttMs: 1,
      pings: 2,
      pingsAnswered: 2,
    });
    expect(device.hourDeltas.get(T0)).toMatchObject({ checks: 1, pings: 2 });
    // The repository has written T0's hour by now: a new batch starts with no deltas.
    device.hourDeltas.clear();
    observe(device, {
      at: T0 + 20_000,
      status: 'inactive',
      sweepId: 'b',
      rttMs: null,
      pings: 2,
      pingsAnswered: 0,
    });
    expect(device.hourDeltas.get(T0)).toMatchObject({ checks: 1, answered: 0, pings: 2, pingsAnswered: 0 });
    expect(device.state.hour).toMatchObject({ hour: T0 + HOUR_MS, checks: 1, pings: 2 });
  });

  it('reckons the 24-hour loss in pings over the current UTC hour and the 23 before it', () => {
    const hour = (start: number, pings: number, pingsAnswered: number): HourStats => ({
      hour: start,
      checks: pings,
      answered: pingsAnswered,
      pings,
      pingsAnswered,
      rttMin: null,
      rttMax: null,
      rttSum: 0,
    });
    const now = T0 + 30 * 60_000;
    const hours = [
      hour(T0 - 24 * HOUR_MS, 100, 0), // 24 hours before the current one: left out
      hour(T0 - 23 * HOUR_MS, 120, 90),
      hour(T0 - HOUR_MS, 120, 120),
      hour(T0, 60, 30), // the current hour, so far
    ];
    expect(loss24h(hours, now)).toEqual({ pings: 300, unanswered: 60, percent: 20 });
    expect(loss24h([], now)).toEqual({ pings: 0, unanswered: 0, percent: null });
    // A device last checked two days ago has no loss to show, not its old figure.
    expect(loss24h(hours, now + 48 * HOUR_MS).percent).toBeNull();
  });

  it('records a late check in its place without changing the current status', () => {
    const device = created();
    observe(device, { at: T0 + 60_000, status: 'inactive', sweepId: 'b' });
    expect(observe(device, { at: T0 + 30_000, status: 'partial', sweepId: 'a' })).toBe('history-only');
    expect(device.state.status).toBe('inactive');
    expect(device.spans).toEqual([
      { start: T0, end: T0 + 30_000, status: 'active' },
      { start: T0 + 30_000, end: T0 + 60_000, status: 'partial' },
      { start: T0 + 60_000, end: Infinity, status: 'inactive' },
    ]);
  });

  it('keeps maintenance, which a person sets and a person ends, while checks go to the history', () => {
    const device = created();
    observe(device, { at: T0 + 1000, status: 'maintenance', manual: true });
    expect(observe(device, { at: T0 + 2000, status: 'inactive', sweepId: 'a' })).toBe('history-only');
    expect(device.state.status).toBe('maintenance');
    expect(device.spans.at(-1)).toEqual({ start: T0 + 2000, end: Infinity, status: 'inactive' });
    observe(device, { at: T0 + 3000, status: 'active', manual: true });
    expect(device.state).toMatchObject({ status: 'active', statusAt: T0 + 3000 });
  });

  it('takes the same sweep or the same instant again as a duplicate', () => {
    const device = created();
    const check = { at: T0 + 1000, status: 'inactive' as const, sweepId: 'a', rttMs: null, pings: 1 };
    expect(observe(device, check)).toBe('applied');
    expect(observe(device, { ...check, at: T0 + 1500 })).toBe('duplicate');
    observe(device, { ...check, at: T0 + 2000, sweepId: 'b' });
    expect(observe(device, check)).toBe('duplicate');
    expect(device.state.hour!.checks).toBe(2);
  });

  it('counts, but does not place, a check older than every kept observation', () => {
    const device = created();
    for (let i = 1; i <= RECENT_LIMIT; i++)
      observe(device, { at: T0 + i * 30_000, status: 'active', sweepId: `s${i}` });
    expect(device.state.recent).toHaveLength(RECENT_LIMIT);
    expect(observe(device, { at: T0 + 15_000, status: 'inactive', sweepId: 'old' })).toBe('too-late');
    expect(device.spans).toEqual([{ start: T0, end: Infinity, status: 'active' }]);
    expect(device.state.hour!.checks).toBe(RECENT_LIMIT + 1);
  });

  it('paints an interval and joins runs of one status', () => {
    const spans: Span[] = [
      { start: 0, end: 10, status: 'active' },
      { start: 10, end: 20, status: 'inactive' },
      { start: 20, end: Infinity, status: 'active' },
    ];
    expect(paint(spans, 10, 20, 'active')).toEqual([{ start: 0, end: Infinity, status: 'active' }]);
    expect(paint(spans, 12, 15, 'inactive')).toEqual(spans);
    expect(spanChanges(spans, paint(spans, 15, 20, 'active'))).toEqual({
      deleted: [20],
      written: [
        { start: 10, end: 15, status: 'inactive' },
        { start: 15, end: Infinity, status: 'active' },
      ],
    });
  });
});
