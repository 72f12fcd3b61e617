import { type EquipmentStatus, type LiveEquipmentStatus } from '@cm/contracts';
import { execute, queryChanged, queryRows } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';
import { type Transaction } from '../../shared/database/table.repository';
import {
  type AlertOutcome,
  CHECK_ALERTS,
  type CheckAlerts,
  type CountedObservation,
  noAlerts,
} from './check-alerts';
import {
  counterRowsOf,
  type CounterRow,
  liveChanges,
  type Loaded,
  spanRowsOf,
  type StateRow,
  stateRowsOf,
  timelineOf,
} from './state-rows';
import {
  type DeviceTimeline,
  type Observation,
  observe,
  RECENT_LIMIT,
  type Span,
  type Verdict,
} from './timeline';

/** One check of one equipment, as inventory records it. */
export interface Check {
  equipmentId: string;
  sweepId: string;
  status: EquipmentStatus;
  checkedAt: number;
  rttMs: number | null;
  pings: number;
  pingsAnswered: number;
}

export type CheckOutcome = Verdict | 'unknown-equipment';
export type BatchOutcome = Record<CheckOutcome, number>;

/** What a committed batch did: its checks' outcomes, the equipment whose status it changed, its alerts. */
export interface BatchResult {
  outcome: BatchOutcome;
  changes: LiveEquipmentStatus[];
  alerts: AlertOutcome;
}

/** A stored status span, read for late observations. */
interface SpanRow {
  equipment_id: string;
  started_at: Date;
  ended_at: Date | null;
  status: EquipmentStatus;
}

/** Equipment whose status a batch changed, with what places it for live screens. */
interface LiveChangeRow {
  id: string;
  roomId: string;
  buildingId: string;
}

/** A timestamptz column as epoch milliseconds (bigint): cheaper to read than a timestamp. */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;

const periodTypes = { day: 'date', hour: 'timestamptz' } as const;

export const emptyOutcome = (): BatchOutcome => ({
  applied: 0,
  'history-only': 0,
  duplicate: 0,
  'too-late': 0,
  'unknown-equipment': 0,
});

/**
 * Records checks and manual status changes into the equipment state, the status spans and the
 * hour and day counters: one transaction per batch, with set-based statements whatever its size.
 */
@Injectable()
export class StatusRepository {
  private readonly t: Tables;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(CHECK_ALERTS) private readonly alerts: CheckAlerts,
  ) {
    this.t = tablesOf(dataSource);
  }

  /** Runs `work` in a transaction of its own: a batch's. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Marks a message's checks as committed with the transaction. False when they already are: the
   * message came again after its commit, its acknowledgement lost. A replica recording the same
   * message at the same time waits here for the other's commit.
   */
  async claimMessage(tx: Transaction, messageId: string, streamSeq: number): Promise<boolean> {
    const rows = await queryRows(
      tx,
      `INSERT INTO ${this.t.handledMessages} (message_id, stream_seq) VALUES ($1, $2)
       ON CONFLICT (message_id) DO NOTHING RETURNING 1`,
      [messageId, streamSeq],
    );
    return rows.length === 1;
  }

  /**
   * Forgets the messages the stream will not deliver again: those at or below the consumer's
   * acknowledgement floor, and any older than the stream keeps a message. Answers how many went.
   */
  async forgetMessages(ackFloor: number, storedBefore: Date): Promise<number> {
    const { count } = await queryChanged(
      this.dataSource,
      `DELETE FROM ${this.t.handledMessages} WHERE stream_seq <= $1 OR handled_at < $2`,
      [ackFloor, storedBefore],
    );
    return count;
  }

  /** Records a batch of checks in the batch's transaction; answers what became of them. */
  recordChecks(tx: Transaction, checks: readonly Check[]): Promise<BatchResult> {
    const byDevice = new Map<string, Observation[]>();
    for (const c of checks) {
      const list = byDevice.get(c.equipmentId) ?? [];
      list.push({
        at: c.checkedAt,
        status: c.status,
        sweepId: c.sweepId,
        rttMs: c.rttMs,
        pings: c.pings,
        pingsAnswered: c.pingsAnswered,
      });
      byDevice.set(c.equipmentId, list);
    }
    return this.apply(tx, byDevice);
  }

  /**
   * A person's status change, inside the caller's transaction (which holds the equipment row); it
   * takes the equipment out of its alert.
   */
  async recordManual(
    manager: Transaction,
    equipmentId: string,
    status: EquipmentStatus,
  ): Promise<AlertOutcome> {
    const result = await this.apply(
      manager,
      new Map([[equipmentId, [{ at: Date.now(), status, manual: true }]]]),
    );
    return result.alerts;
  }

  private async apply(manager: Transaction, byDevice: Map<string, Observation[]>): Promise<BatchResult> {
    const outcome = emptyOutcome();
    // Locked in id order, so batches that share devices wait for each other instead of
    // deadlocking; KEY SHARE on the equipment makes a concurrent delete wait for this commit.
    const rows = await queryRows<StateRow>(
      manager,
      `SELECT e.id, e.room_id, e.status, ${this.alerts.stateColumns}, st.status_at, st.last_checked_at, st.last_rtt_ms, st.last_sweep_id,
              st.recent[cardinality(st.recent)] AS newest,
              st.span_started_at, st.span_status, ${epochMs('st.hour')} AS hour, st.hour_checks, st.hour_answered, st.hour_pings,
              st.hour_pings_answered, st.hour_rtt_min, st.hour_rtt_max, st.hour_rtt_sum
         FROM ${this.t.equipment} e
         JOIN ${this.t.state} st ON st.equipment_id = e.id
        WHERE e.id = ANY($1::uuid[])
        ORDER BY e.id
          FOR KEY SHARE OF e
          FOR NO KEY UPDATE OF st`,
      [[...byDevice.keys()]],
    );
    const known = new Set(rows.map((r) => r.id));
    for (const [id, list] of byDevice) if (!known.has(id)) outcome['unknown-equipment'] += list.length;
    if (rows.length === 0) return { outcome, changes: [], alerts: noAlerts() };

    const devices = rows.map(timelineOf);
    const before = devices.map((d) => ({ newest: d.state.recent.at(-1) ?? null }));
    const full = await this.loadForLateObservations(manager, devices, byDevice);

    const loaded = devices.map((d, i) => ({ ...before[i], spans: d.spans, status: d.state.status }));
    // Only what changed the status in order counts for alerts: never a repeat, a late check or history.
    const applied = devices.map((device) => {
      const list = [...byDevice.get(device.state.equipmentId)!].sort((a, b) => a.at - b.at);
      const counted: CountedObservation[] = [];
      for (const o of list) {
        const verdict = observe(device, o);
        outcome[verdict]++;
        if (verdict === 'applied') counted.push({ at: o.at, status: o.status, manual: o.manual });
      }
      return counted;
    });
    const changes = await this.write(manager, devices, loaded, full);
    const alerts = await this.alerts.afterChecks(
      manager,
      rows.map((row, i) => ({ id: row.id, roomId: row.room_id, row, observations: applied[i] })),
    );
    return { outcome, changes, alerts };
  }

  /**
   * In order, an observation needs only the newest kept time and the open span, both in the
   * state row. One at or before the newest may be late or a repeat: for those few devices the
   * whole list of kept times and every span from the observation on are read. Answers the ids
   * whose list was read.
   */
  private async loadForLateObservations(
    manager: Transaction,
    devices: DeviceTimeline[],
    byDevice: Map<string, Observation[]>,
  ): Promise<Set<string>> {
    const since = new Map<string, number>();
    for (const d of devices) {
      const newest = d.state.recent.at(-1) ?? -Infinity;
      const earliest = Math.min(...byDevice.get(d.state.equipmentId)!.map((o) => o.at));
      if (earliest <= newest) since.set(d.state.equipmentId, earliest);
    }
    if (since.size === 0) return new Set();
    const ids = [...since.keys()];
    const lists = await queryRows<{ equipment_id: string; recent: string[] }>(
      manager,
      `SELECT equipment_id, recent FROM ${this.t.state} WHERE equipment_id = ANY($1::uuid[])`,
      [ids],
    );
    const recentById = new Map(lists.map((l) => [l.equipment_id, l.recent.map(Number)]));
    const spans = await queryRows<SpanRow>(
      manager,
      `SELECT s.equipment_id, s.started_at, s.ended_at, s.status
           FROM ${this.t.spans} s
           JOIN unnest($1::uuid[], $2::timestamptz[]) AS l (id, since) ON s.equipment_id = l.id
          WHERE s.ended_at IS NULL OR s.ended_at >= l.since
          ORDER BY s.equipment_id, s.started_at`,
      [ids, [...since.values()].map((t) => new Date(t).toISOString())],
    );
    const byId = new Map<string, Span[]>();
    for (const s of spans) {
      const list = byId.get(s.equipment_id) ?? [];
      list.push({ start: s.started_at.getTime(), end: s.ended_at?.getTime() ?? Infinity, status: s.status });
      byId.set(s.equipment_id, list);
    }
    for (const d of devices) {
      if (!since.has(d.state.equipmentId)) continue;
      d.state.recent = recentById.get(d.state.equipmentId) ?? [];
      d.spans = byId.get(d.state.equipmentId) ?? [];
    }
    return new Set(ids);
  }

  private async write(
    manager: Transaction,
    devices: DeviceTimeline[],
    before: Loaded[],
    full: Set<string>,
  ): Promise<LiveEquipmentStatus[]> {
    const states = stateRowsOf(devices, before, full);
    await execute(
      manager,
      `UPDATE ${this.t.state} st
          SET status_at = x.status_at, last_checked_at = x.last_checked_at, last_rtt_ms = x.last_rtt_ms,
              last_sweep_id = x.last_sweep_id,
              recent = CASE WHEN x.recent_whole THEN x.recent
                            ELSE (st.recent || x.recent)[greatest(cardinality(st.recent) + cardinality(x.recent) - ${RECENT_LIMIT - 1}, 1):]
                       END,
              span_started_at = x.span_started_at,
              span_status = x.span_status, hour = x.hour, hour_checks = x.hour_checks,
              hour_answered = x.hour_answered, hour_pings = x.hour_pings, hour_pings_answered = x.hour_pings_answered,
              hour_rtt_min = x.hour_rtt_min, hour_rtt_max = x.hour_rtt_max, hour_rtt_sum = x.hour_rtt_sum
         FROM jsonb_to_recordset($1::jsonb) AS x (
                equipment_id uuid, status_at timestamptz, last_checked_at timestamptz, last_rtt_ms real,
                last_sweep_id varchar, recent_whole boolean, recent bigint[], span_started_at timestamptz, span_status varchar,
                hour timestamptz,
                hour_checks integer, hour_answered integer, hour_pings integer, hour_pings_answered integer,
                hour_rtt_min real, hour_rtt_max real, hour_rtt_sum double precision)
        WHERE st.equipment_id = x.equipment_id`,
      [JSON.stringify(states)],
    );

    const { deleted, written } = spanRowsOf(devices, before);
    if (deleted.length) {
      await execute(
        manager,
        `DELETE FROM ${this.t.spans} s
          USING jsonb_to_recordset($1::jsonb) AS x (equipment_id uuid, started_at timestamptz)
          WHERE s.equipment_id = x.equipment_id AND s.started_at = x.started_at`,
        [JSON.stringify(deleted)],
      );
    }
    if (written.length) {
      await execute(
        manager,
        `INSERT INTO ${this.t.spans} (equipment_id, started_at, ended_at, status)
         SELECT equipment_id, started_at, ended_at, status
           FROM jsonb_to_recordset($1::jsonb)
                AS x (equipment_id uuid, started_at timestamptz, ended_at timestamptz, status varchar)
         ON CONFLICT (equipment_id, started_at) DO UPDATE SET ended_at = excluded.ended_at, status = excluded.status`,
        [JSON.stringify(written)],
      );
    }

    const statuses = devices
      .filter((d, i) => d.state.status !== before[i].status)
      .map((d) => ({ id: d.state.equipmentId, status: d.state.status }));
    let changed: LiveChangeRow[] = [];
    if (statuses.length) {
      ({ rows: changed } = await queryChanged<LiveChangeRow>(
        manager,
        `UPDATE ${this.t.equipment} e SET status = x.status
           FROM jsonb_to_recordset($1::jsonb) AS x (id uuid, status varchar), ${this.t.rooms} r
          WHERE e.id = x.id AND r.id = e.room_id
          RETURNING e.id, e.room_id AS "roomId", r.building_id AS "buildingId"`,
        [JSON.stringify(statuses)],
      ));
    }

    const counters = counterRowsOf(devices);
    await this.addCounters(manager, this.t.days, 'day', counters.days);
    await this.addCounters(manager, this.t.hours, 'hour', counters.hours);

    return liveChanges(devices, changed);
  }

  /** Adds counters to the stored rows of their periods (days or hours), creating those missing. */
  private async addCounters(
    manager: Transaction,
    table: string,
    column: keyof typeof periodTypes,
    rows: CounterRow[],
  ): Promise<void> {
    if (rows.length === 0) return;
    await execute(
      manager,
      `INSERT INTO ${table} AS d (equipment_id, ${column}, checks, answered, pings, pings_answered, rtt_min,
                                 rtt_max, rtt_sum)
       SELECT equipment_id, period, checks, answered, pings, pings_answered, rtt_min, rtt_max, rtt_sum
         FROM jsonb_to_recordset($1::jsonb) AS x (
                equipment_id uuid, period ${periodTypes[column]}, checks integer, answered integer, pings integer,
                pings_answered integer, rtt_min real, rtt_max real, rtt_sum double precision)
       ON CONFLICT (equipment_id, ${column}) DO UPDATE
          SET checks = d.checks + excluded.checks, answered = d.answered + excluded.answered,
              pings = d.pings + excluded.pings, pings_answered = d.pings_answered + excluded.pings_answered,
              rtt_min = LEAST(d.rtt_min, excluded.rtt_min), rtt_max = GREATEST(d.rtt_max, excluded.rtt_max),
              rtt_sum = d.rtt_sum + excluded.rtt_sum`,
      [JSON.stringify(rows)],
    );
  }

  /** Deletes spans that ended and day counters that closed before `before`; answers how many rows went. */
  async prune(before: Date): Promise<number> {
    const { count: spans } = await queryChanged(
      this.dataSource,
      `DELETE FROM ${this.t.spans} WHERE ended_at < $1`,
      [before],
    );
    const { count: days } = await queryChanged(
      this.dataSource,
      `DELETE FROM ${this.t.days} WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date`,
      [before],
    );
    return spans + days;
  }

  /** Deletes hour counters of hours that began before `before`; answers how many rows went. */
  async pruneHours(before: Date): Promise<number> {
    const { count: hours } = await queryChanged(
      this.dataSource,
      `DELETE FROM ${this.t.hours} WHERE hour < $1`,
      [before],
    );
    return hours;
  }
}
