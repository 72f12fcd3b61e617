// Between the stored rows of a device's status (its `equipment_state` row, its spans, its hour and
// day counters) and its timeline (`timeline.ts`): what a status batch reads and writes.
import { type EquipmentStatus, type LiveEquipmentStatus } from '@cm/contracts';
import { type Counters, daysOf, type DeviceTimeline, type Span, spanChanges } from './timeline';

/** An `equipment_state` row with its equipment's id, room and status, as a batch reads it. */
export interface StateRow {
  id: string;
  room_id: string;
  status: EquipmentStatus;
  status_at: Date;
  last_checked_at: Date | null;
  last_rtt_ms: number | null;
  last_sweep_id: string | null;
  /** The newest of the kept observation times (epoch ms, as text: bigint). */
  newest: string | null;
  span_started_at: Date | null;
  span_status: EquipmentStatus | null;
  /** Epoch ms of the hour's start (as text: bigint). */
  hour: string | null;
  hour_checks: number;
  hour_answered: number;
  hour_pings: number;
  hour_pings_answered: number;
  hour_rtt_min: number | null;
  hour_rtt_max: number | null;
  hour_rtt_sum: number;
}

/** What a batch loaded of a device before applying its observations. */
export interface Loaded {
  /** The newest kept observation time. */
  newest: number | null;
  spans: Span[];
  status: EquipmentStatus;
}

const ms = (d: Date | null) => (d === null ? null : d.getTime());
export const iso = (t: number | null) => (t === null || t === Infinity ? null : new Date(t).toISOString());

/**
 * The timeline of a state row: only the newest kept time and the open span, all an observation
 * in order needs (the repository reads the rest for late ones).
 */
export function timelineOf(row: StateRow): DeviceTimeline {
  const open: Span[] =
    row.span_started_at && row.span_status
      ? [{ start: row.span_started_at.getTime(), end: Infinity, status: row.span_status }]
      : [];
  return {
    state: {
      equipmentId: row.id,
      status: row.status,
      statusAt: row.status_at.getTime(),
      lastCheckedAt: ms(row.last_checked_at),
      lastRttMs: row.last_rtt_ms,
      lastSweepId: row.last_sweep_id,
      recent: row.newest === null ? [] : [Number(row.newest)],
      hour:
        row.hour === null
          ? null
          : {
              hour: Number(row.hour),
              checks: row.hour_checks,
              answered: row.hour_answered,
              pings: row.hour_pings,
              pingsAnswered: row.hour_pings_answered,
              rttMin: row.hour_rtt_min,
              rttMax: row.hour_rtt_max,
              rttSum: row.hour_rtt_sum,
            },
    },
    spans: open,
    hourDeltas: new Map(),
  };
}

/**
 * The state rows to write back. A list of kept times read whole (`whole` holds the device) is
 * written whole; otherwise only the times added, which the statement appends.
 */
export function stateRowsOf(
  devices: readonly DeviceTimeline[],
  before: readonly Loaded[],
  whole: Set<string>,
) {
  return devices.map(({ state: s, spans }, i) => {
    const all = whole.has(s.equipmentId);
    const open = spans.at(-1)?.end === Infinity ? spans.at(-1)! : null;
    return {
      equipment_id: s.equipmentId,
      status_at: iso(s.statusAt),
      last_checked_at: iso(s.lastCheckedAt),
      last_rtt_ms: s.lastRttMs,
      last_sweep_id: s.lastSweepId,
      recent_whole: all,
      recent: all ? s.recent : s.recent.filter((t) => before[i].newest === null || t > before[i].newest),
      span_started_at: iso(open?.start ?? null),
      span_status: open?.status ?? null,
      hour: iso(s.hour?.hour ?? null),
      hour_checks: s.hour?.checks ?? 0,
      hour_answered: s.hour?.answered ?? 0,
      hour_pings: s.hour?.pings ?? 0,
      hour_pings_answered: s.hour?.pingsAnswered ?? 0,
      hour_rtt_min: s.hour?.rttMin ?? null,
      hour_rtt_max: s.hour?.rttMax ?? null,
      hour_rtt_sum: s.hour?.rttSum ?? 0,
    };
  });
}

/** The span rows to delete (by start) and to write (insert or update), from the spans loaded. */
export function spanRowsOf(devices: readonly DeviceTimeline[], before: readonly Loaded[]) {
  const deleted: { equipment_id: string; started_at: string }[] = [];
  const written: { equipment_id: string; started_at: string; ended_at: string | null; status: string }[] = [];
  devices.forEach((d, i) => {
    const changes = spanChanges(before[i].spans, d.spans);
    for (const start of changes.deleted)
      deleted.push({ equipment_id: d.state.equipmentId, started_at: iso(start)! });
    for (const s of changes.written) {
      written.push({
        equipment_id: d.state.equipmentId,
        started_at: iso(s.start)!,
        ended_at: iso(s.end),
        status: s.status,
      });
    }
  });
  return { deleted, written };
}

const counterRow = (d: DeviceTimeline, period: string, s: Counters) => ({
  equipment_id: d.state.equipmentId,
  period,
  checks: s.checks,
  answered: s.answered,
  pings: s.pings,
  pings_answered: s.pingsAnswered,
  rtt_min: s.rttMin,
  rtt_max: s.rttMax,
  rtt_sum: s.rttSum,
});
export type CounterRow = ReturnType<typeof counterRow>;

/** What the batch adds to the day and hour counters. */
export function counterRowsOf(devices: readonly DeviceTimeline[]): {
  days: CounterRow[];
  hours: CounterRow[];
} {
  return {
    days: devices.flatMap((d) => daysOf(d.hourDeltas.values()).map((s) => counterRow(d, s.day, s))),
    hours: devices.flatMap((d) => [...d.hourDeltas.values()].map((s) => counterRow(d, iso(s.hour)!, s))),
  };
}

/** The live events of the equipment whose status the batch changed (`changed`, from the statement). */
export function liveChanges(
  devices: readonly DeviceTimeline[],
  changed: readonly { id: string; roomId: string; buildingId: string }[],
): LiveEquipmentStatus[] {
  const byId = new Map(devices.map((d) => [d.state.equipmentId, d.state]));
  return changed.map(({ id, roomId, buildingId }) => {
    const state = byId.get(id)!;
    return {
      equipmentId: id,
      roomId,
      buildingId,
      status: state.status,
      lastCheckedAt: iso(state.lastCheckedAt),
      rttMs: state.lastRttMs,
    };
  });
}
