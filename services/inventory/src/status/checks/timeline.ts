import { type EquipmentStatus } from '@cm/contracts';

/**
 * A device's status history is a step function: each observation (a monitor check, or a person
 * setting the status) holds until the next one. It is stored as spans, the runs of one status,
 * so a device whose status does not change costs no new row however often it is pinged.
 *
 * Observations mostly arrive in order, and then only the open span can change. A late one (a
 * redelivered or retried event) sets its status from its own time until the next observation;
 * to know that next time, each device keeps the times of its newest RECENT_LIMIT observations.
 * A check older than all of them (with the list full) can no longer be placed exactly: it is
 * counted in its hour (and so its day) but leaves the timeline as it is ("too-late"), and it
 * cannot be told from a check recorded before, so such a redelivery would be counted twice. Only
 * a check that waits longer than RECENT_LIMIT newer ones of its device, and had already been
 * committed, is. This module is pure: the repository loads the state and the spans a batch
 * touches, and writes back the difference.
 */

/** Newest observation times kept per device: at 30 s, a check may be about 15 minutes late. */
export const RECENT_LIMIT = 32;

export interface Span {
  start: number;
  /** Infinity while open. */
  end: number;
  status: EquipmentStatus;
}

/** Check counters of one device over one period (a UTC day, or a UTC hour). */
export interface Counters {
  checks: number;
  /** Checks with at least one answering address. */
  answered: number;
  pings: number;
  pingsAnswered: number;
  rttMin: number | null;
  rttMax: number | null;
  /** Sum of the answered checks' round trips: the mean is rttSum ÷ answered. */
  rttSum: number;
}

export interface DayStats extends Counters {
  /** YYYY-MM-DD (UTC). */
  day: string;
}

export interface HourStats extends Counters {
  /** Start of the UTC hour (ms). */
  hour: number;
}

export interface DeviceState {
  equipmentId: string;
  /** What the screens show: follows newer checks, except over maintenance. */
  status: EquipmentStatus;
  /** When `status` was last set, by a check or a person (ms). */
  statusAt: number;
  lastCheckedAt: number | null;
  lastRttMs: number | null;
  /** The sweep of the newest check: the same sweep again is a duplicate. */
  lastSweepId: string | null;
  /** Times of the newest observations, ascending, at most RECENT_LIMIT. */
  recent: number[];
  /**
   * Counters of the hour of the newest check, written out when a later hour begins (to its hour
   * and to its day: a day's counters are the sum of its hours written out).
   */
  hour: HourStats | null;
}

export interface Observation {
  at: number;
  status: EquipmentStatus;
  /** A person's change: it always sets the status, and is not a check. */
  manual?: boolean;
  sweepId?: string;
  rttMs?: number | null;
  pings?: number;
  pingsAnswered?: number;
}

export type Verdict =
  /** Recorded, and the equipment's status follows it. */
  | 'applied'
  /** Recorded in the history only: older than the current status, or over maintenance. */
  | 'history-only'
  | 'duplicate'
  /** Older than every observation kept: counted in its hour, but not placed on the timeline. */
  | 'too-late';

/** One device while a batch is applied: its state, the spans loaded, and counters to add. */
export interface DeviceTimeline {
  state: DeviceState;
  /** Every span that ends at or after the earliest observation of the batch, ascending. */
  spans: Span[];
  /** Counters of hours other than the state's, to add to the stored hours and days. */
  hourDeltas: Map<number, HourStats>;
}

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export const HOUR_MS = 3_600_000;
export const utcHour = (ms: number) => ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);

const minOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
const maxOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));

/** Adds `b`'s counters to `a` (the same period): answers `a`'s period with the sums. */
export function mergeCounters<S extends Counters>(a: S, b: Counters): S {
  return {
    ...a,
    checks: a.checks + b.checks,
    answered: a.answered + b.answered,
    pings: a.pings + b.pings,
    pingsAnswered: a.pingsAnswered + b.pingsAnswered,
    rttMin: minOf(a.rttMin, b.rttMin),
    rttMax: maxOf(a.rttMax, b.rttMax),
    rttSum: a.rttSum + b.rttSum,
  };
}

/** Hour counters summed by their UTC day. */
export function daysOf(hours: Iterable<HourStats>): DayStats[] {
  const days = new Map<string, DayStats>();
  for (const { hour, ...counters } of hours) {
    const day = utcDay(hour);
    const known = days.get(day);
    days.set(day, known ? mergeCounters(known, counters) : { day, ...counters });
  }
  return [...days.values()];
}

/**
 * Sets `status` over [from, to) and joins neighbouring spans of one status. Spans outside the
 * interval keep their bounds; one that straddles an end is cut there.
 */
export function paint(spans: readonly Span[], from: number, to: number, status: EquipmentStatus): Span[] {
  const pieces: Span[] = [];
  for (const span of spans) {
    if (span.end <= from || span.start >= to) {
      pieces.push(span);
      continue;
    }
    if (span.start < from) pieces.push({ ...span, end: from });
    if (span.end > to) pieces.push({ ...span, start: to });
  }
  pieces.push({ start: from, end: to, status });
  pieces.sort((a, b) => a.start - b.start);
  const joined: Span[] = [];
  for (const span of pieces) {
    const last = joined.at(-1);
    if (last && last.end === span.start && last.status === span.status) last.end = span.end;
    else joined.push({ ...span });
  }
  return joined;
}

function countCheck(device: DeviceTimeline, o: Observation): void {
  const state = device.state;
  const answered = o.rttMs !== null && o.rttMs !== undefined;
  const check: Counters = {
    checks: 1,
    answered: answered ? 1 : 0,
    pings: o.pings ?? 0,
    pingsAnswered: o.pingsAnswered ?? 0,
    rttMin: answered ? o.rttMs! : null,
    rttMax: answered ? o.rttMs! : null,
    rttSum: answered ? o.rttMs! : 0,
  };
  const hour: HourStats = { hour: utcHour(o.at), ...check };
  const current = state.hour;
  if (current === null || hour.hour > current.hour) {
    // A later hour begins: the state's goes to the stored ones.
    if (current && current.checks > 0) addHour(device, current);
    state.hour = hour;
  } else if (hour.hour === current.hour) {
    state.hour = mergeCounters(current, hour);
  } else {
    addHour(device, hour);
  }
}

function addHour(device: DeviceTimeline, stats: HourStats): void {
  const known = device.hourDeltas.get(stats.hour);
  device.hourDeltas.set(stats.hour, known ? mergeCounters(known, stats) : stats);
}

/** Applies one observation to the device's timeline, state and counters. */
export function observe(device: DeviceTimeline, observation: Observation): Verdict {
  const state = device.state;
  // A person's change is the latest word, even within the millisecond of the last check.
  const o =
    observation.manual && state.recent.length && observation.at <= state.recent.at(-1)!
      ? { ...observation, at: state.recent.at(-1)! + 1 }
      : observation;
  if (!o.manual && o.sweepId !== undefined && o.sweepId === state.lastSweepId) return 'duplicate';
  // The same instant again is the same observation delivered twice.
  if (state.recent.includes(o.at)) return 'duplicate';
  const newest = state.recent.at(-1) ?? -Infinity;
  const late = o.at < newest;
  if (late && state.recent.length >= RECENT_LIMIT && o.at < state.recent[0]) {
    if (!o.manual) countCheck(device, o);
    return 'too-late';
  }

  const next = late ? state.recent.find((t) => t > o.at)! : Infinity;
  device.spans = paint(device.spans, o.at, next, o.status);
  state.recent = [...state.recent, o.at].sort((a, b) => a - b).slice(-RECENT_LIMIT);

  if (o.manual) {
    state.status = o.status;
    state.statusAt = o.at;
    return 'applied';
  }
  if (state.lastCheckedAt === null || o.at > state.lastCheckedAt) {
    state.lastCheckedAt = o.at;
    state.lastRttMs = o.rttMs ?? null;
    state.lastSweepId = o.sweepId ?? null;
  }
  countCheck(device, o);
  // Maintenance is a person's to end; a check made before the status was last set is history.
  if (o.at > state.statusAt && state.status !== 'maintenance') {
    state.status = o.status;
    state.statusAt = o.at;
    return 'applied';
  }
  return 'history-only';
}

/** What changed between the spans loaded and the spans now: starts to delete, spans to write. */
export function spanChanges(
  before: readonly Span[],
  after: readonly Span[],
): { deleted: number[]; written: Span[] } {
  const old = new Map(before.map((s) => [s.start, s]));
  const kept = new Set(after.map((s) => s.start));
  return {
    deleted: before.filter((s) => !kept.has(s.start)).map((s) => s.start),
    written: after.filter((s) => {
      const was = old.get(s.start);
      return !was || was.end !== s.end || was.status !== s.status;
    }),
  };
}

/** The 24-hour loss covers the current UTC hour and the 23 before it. */
export const LOSS_WINDOW_HOURS = 24;

/**
 * Pings sent and pings unanswered over the current UTC hour (at `now`) and the 23 before it, from
 * the hour counters (the stored ones and the state's). The share is of pings, not checks: a check
 * of a range sends one per address. Null without a ping in that time.
 */
export function loss24h(
  hours: readonly HourStats[],
  now: number,
): { pings: number; unanswered: number; percent: number | null } {
  const since = utcHour(now) - (LOSS_WINDOW_HOURS - 1) * HOUR_MS;
  let pings = 0;
  let answered = 0;
  for (const h of hours) {
    if (h.hour < since || h.hour > now) continue;
    pings += h.pings;
    answered += h.pingsAnswered;
  }
  const unanswered = pings - answered;
  return { pings, unanswered, percent: pings > 0 ? (unanswered / pings) * 100 : null };
}
