import { type EquipmentStatus } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';
import { uptimeSecondsSql } from '../reports/uptime';
import { type Counters, type DayStats, type HourStats } from '../checks/timeline';

/** An equipment's state row: its status and the counters of its newest check's hour. */
export interface HistoryState {
  status: EquipmentStatus;
  statusAt: number;
  lastCheckedAt: number | null;
  lastRttMs: number | null;
  hour: HourStats | null;
}

export interface StoredSpan {
  start: number;
  /** Null while open. */
  end: number | null;
  status: EquipmentStatus;
}

/** The counter columns of a period row (or of the state row, with its prefix) as `Counters`. */
const counters = (prefix = '') => `${prefix}checks AS checks, ${prefix}answered AS answered,
  ${prefix}pings AS pings, ${prefix}pings_answered AS "pingsAnswered", ${prefix}rtt_min AS "rttMin",
  ${prefix}rtt_max AS "rttMax", ${prefix}rtt_sum AS "rttSum"`;

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

type StateRow = Omit<HistoryState, 'hour'> & { hour: number | null; hourCounters: Counters };

/** Reads one equipment's status history: its state, spans, hour and day counters, uptime. */
@Injectable()
export class HistoryRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  /** Null when there is no such equipment. */
  async state(id: string): Promise<HistoryState | null> {
    const [row] = await queryRows<StateRow>(
      this.dataSource,
      `SELECT e.status, ${epochMs('st.status_at')} AS "statusAt", ${epochMs('st.last_checked_at')} AS "lastCheckedAt",
              st.last_rtt_ms AS "lastRttMs", ${epochMs('st.hour')} AS hour,
              json_build_object('checks', st.hour_checks, 'answered', st.hour_answered, 'pings', st.hour_pings,
                'pingsAnswered', st.hour_pings_answered, 'rttMin', st.hour_rtt_min, 'rttMax', st.hour_rtt_max,
                'rttSum', st.hour_rtt_sum) AS "hourCounters"
         FROM ${this.t.equipment} e
         JOIN ${this.t.state} st ON st.equipment_id = e.id
        WHERE e.id = $1`,
      [id],
    );
    if (!row) return null;
    const { hour, hourCounters, ...state } = row;
    return { ...state, hour: hour === null ? null : { hour, ...hourCounters } };
  }

  /** Spans that overlap [from, to), oldest first. */
  spans(id: string, from: number, to: number): Promise<StoredSpan[]> {
    return queryRows<StoredSpan>(
      this.dataSource,
      `SELECT ${epochMs('started_at')} AS start, ${epochMs('ended_at')} AS "end", status
         FROM ${this.t.spans}
        WHERE equipment_id = $1 AND started_at < $3 AND (ended_at IS NULL OR ended_at > $2)
        ORDER BY started_at`,
      [id, new Date(from), new Date(to)],
    );
  }

  /** Stored hour counters of the hours that begin in [from, to), oldest first. */
  hours(id: string, from: number, to: number): Promise<HourStats[]> {
    return queryRows<HourStats>(
      this.dataSource,
      `SELECT ${epochMs('hour')} AS hour, ${counters()}
         FROM ${this.t.hours}
        WHERE equipment_id = $1 AND hour >= $2 AND hour < $3
        ORDER BY hour`,
      [id, new Date(from), new Date(to)],
    );
  }

  /** Stored day counters of the UTC days from `from` up to, not including, `to` (YYYY-MM-DD). */
  days(id: string, from: string, to: string): Promise<DayStats[]> {
    return queryRows<DayStats>(
      this.dataSource,
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, ${counters()}
         FROM ${this.t.days}
        WHERE equipment_id = $1 AND day >= $2::date AND day < $3::date
        ORDER BY day`,
      [id, from, to],
    );
  }

  /** Seconds up and down within [from, to), as the uptime report counts them. */
  async uptime(id: string, from: number, to: number): Promise<{ up: number; down: number }> {
    const [row] = await queryRows<{ up: number | null; down: number | null }>(
      this.dataSource,
      `SELECT u.up::float8 AS up, u.down::float8 AS down
         FROM (${uptimeSecondsSql(this.t, '$1', '$2::timestamptz', '$3::timestamptz')}) u`,
      [id, new Date(from), new Date(to)],
    );
    return { up: row?.up ?? 0, down: row?.down ?? 0 };
  }
}
