import { type ScheduleProblem, type ScheduleSource, type ScheduleSourceInput } from '@cm/contracts';
import { queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';

const columns = `s.id, s.name, s.room_id AS "roomId", s.building_id AS "buildingId", s.url,
  CASE WHEN s.url IS NULL THEN 'file' ELSE 'feed' END AS kind, s.file_name AS "fileName",
  ${isoOf('s.last_good_at')} AS "lastGoodAt", ${isoOf('s.last_checked_at')} AS "lastCheckedAt",
  ${isoOf('s.failing_since')} AS "failingSince", s.last_error AS "lastError", s.problems,
  ${isoOf('s.created_at')} AS "createdAt", ${isoOf('s.updated_at')} AS "updatedAt"`;

/** The calendar a source reads from, as the reader needs it. */
export interface StoredCalendar {
  text: string;
  format: 'ics' | 'csv';
}

/** A source claimed for a read: its feed (if any), its ETag and the calendar kept. */
export interface ClaimedSource {
  id: string;
  url: string | null;
  etag: string | null;
  failures: number;
  calendar: StoredCalendar | null;
  roomId: string | null;
  /** The lease this read holds: its outcome is recorded only while the lease is still its own. */
  leaseUntil: Date;
}

/** How a read went, for the row: a good read replaces the calendar, a failed one keeps it. */
export type ReadOutcome =
  | { ok: true; calendar: StoredCalendar | null; etag: string | null; problems: ScheduleProblem[] }
  | { ok: false; error: string };

/** The sources of class schedules, their state, and the claim that makes one replica read each. */
@Injectable()
export class ScheduleSourceRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  private selectSql(where: string): string {
    return `SELECT ${columns},
        coalesce((SELECT b.name || ' · ' || r.name FROM ${this.t.rooms} r JOIN ${this.t.buildings} b ON b.id = r.building_id
                   WHERE r.id = s.room_id),
                 (SELECT b.name FROM ${this.t.buildings} b WHERE b.id = s.building_id)) AS "placeName",
        (SELECT count(*)::int FROM ${this.t.occurrences} o WHERE o.source_id = s.id AND o.ends_at > $1) AS occurrences,
        (SELECT count(*)::int FROM ${this.t.occurrences} o
          WHERE o.source_id = s.id AND o.ends_at > $1 AND o.room_id IS NULL) AS unmatched
      FROM ${this.t.scheduleSources} s ${where}`;
  }

  list(now: Date): Promise<ScheduleSource[]> {
    return queryRows<ScheduleSource>(this.dataSource, `${this.selectSql('')} ORDER BY lower(s.name), s.id`, [
      now,
    ]);
  }

  async get(
    id: string,
    now: Date,
    manager: Transaction = this.dataSource.manager,
  ): Promise<ScheduleSource | null> {
    const rows = await queryRows<ScheduleSource>(manager, `${this.selectSql('WHERE s.id = $2')}`, [now, id]);
    return rows[0] ?? null;
  }

  /** A new source, due to be read at once when it is a feed. */
  async create(input: ScheduleSourceInput, now: Date): Promise<string> {
    const [row] = await queryRows<{ id: string }>(
      this.dataSource,
      `INSERT INTO ${this.t.scheduleSources} (name, room_id, building_id, url, next_read_at)
       VALUES ($1, $2, $3, $4::text, CASE WHEN $4::text IS NULL THEN NULL ELSE $5::timestamptz END) RETURNING id`,
      [input.name, input.roomId, input.buildingId, input.url, now],
    );
    return row.id;
  }

  /**
   * The whole form. A new URL drops what the old one said (ETag, error) and is read at once, and
   * a read under way for the old one is no longer recorded (its lease is gone).
   */
  async update(id: string, input: ScheduleSourceInput, now: Date, tx: Transaction): Promise<boolean> {
    const { count } = await queryChanged(
      tx,
      `UPDATE ${this.t.scheduleSources} AS s
          SET name = $2, room_id = $3, building_id = $4, url = $5::varchar, updated_at = $6,
              etag = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN NULL ELSE s.etag END,
              failing_since = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN NULL ELSE s.failing_since END,
              last_error = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN NULL ELSE s.last_error END,
              failures = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN 0 ELSE s.failures END,
              lease_until = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN NULL ELSE s.lease_until END,
              next_read_at = CASE WHEN s.url IS DISTINCT FROM $5::varchar THEN $6::timestamptz ELSE s.next_read_at END
        WHERE s.id = $1`,
      [id, input.name, input.roomId, input.buildingId, input.url, now],
    );
    return count > 0;
  }

  delete(id: string): Promise<boolean> {
    return this.deleteById(this.t.scheduleSources, id);
  }

  /** The source's kept calendar and place, or null when there is no such source. */
  async calendarOf(
    id: string,
    tx: Transaction,
  ): Promise<{ url: string | null; roomId: string | null; calendar: StoredCalendar | null } | null> {
    const rows = await queryRows<{
      url: string | null;
      roomId: string | null;
      text: string | null;
      format: 'ics' | 'csv' | null;
    }>(
      tx,
      `SELECT url, room_id AS "roomId", calendar_text AS text, calendar_format AS format
         FROM ${this.t.scheduleSources} WHERE id = $1 FOR UPDATE`,
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      url: row.url,
      roomId: row.roomId,
      calendar: row.text && row.format ? { text: row.text, format: row.format } : null,
    };
  }

  /** An uploaded file, read well: it is the schedule from now on, expanded afresh every `refreshMs`. */
  async saveFile(
    id: string,
    file: StoredCalendar & { fileName: string | null; problems: ScheduleProblem[] },
    now: Date,
    refreshMs: number,
    tx: Transaction,
  ): Promise<void> {
    await queryChanged(
      tx,
      `UPDATE ${this.t.scheduleSources}
          SET calendar_text = $2, calendar_format = $3, file_name = $4, problems = $5::jsonb,
              last_good_at = $6, last_error = NULL, failing_since = NULL, failures = 0, etag = NULL,
              next_read_at = $6::timestamptz + $7::int * interval '1 millisecond', updated_at = $6
        WHERE id = $1`,
      [id, file.text, file.format, file.fileName, JSON.stringify(file.problems), now, refreshMs],
    );
  }

  /**
   * Up to `limit` sources due to be read (a feed fetched, a file expanded afresh), each leased
   * for `leaseMs` to this replica: SKIP LOCKED and the lease keep two replicas from reading one.
   */
  claimDue(limit: number, leaseMs: number, now: Date): Promise<ClaimedSource[]> {
    return queryChanged<
      Omit<ClaimedSource, 'calendar'> & { text: string | null; format: 'ics' | 'csv' | null }
    >(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM ${this.t.scheduleSources}
          WHERE next_read_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
          ORDER BY next_read_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       )
       UPDATE ${this.t.scheduleSources} AS s
          SET lease_until = $2::timestamptz + $3::int * interval '1 millisecond'
         FROM due WHERE s.id = due.id
       RETURNING s.id, s.url, s.etag, s.failures, s.room_id AS "roomId", s.lease_until AS "leaseUntil",
                 s.calendar_text AS text, s.calendar_format AS format`,
      [limit, now, leaseMs],
    ).then(({ rows }) =>
      rows.map(({ text, format, ...row }) => ({
        ...row,
        calendar: text && format ? { text, format } : null,
      })),
    );
  }

  /**
   * Records a read's outcome and when the next is due; false (nothing written) when the lease is
   * no longer this read's: the source was edited or deleted meanwhile.
   */
  async recordRead(
    source: ClaimedSource,
    outcome: ReadOutcome,
    at: { now: Date; nextReadAt: Date },
    tx: Transaction,
  ): Promise<boolean> {
    const common = [source.id, source.leaseUntil, at.now, at.nextReadAt];
    const { count } = outcome.ok
      ? await queryChanged(
          tx,
          `UPDATE ${this.t.scheduleSources}
              SET calendar_text = coalesce($5, calendar_text), calendar_format = coalesce($6, calendar_format),
                  etag = $7, problems = coalesce($8::jsonb, problems), last_good_at = CASE WHEN url IS NULL THEN last_good_at ELSE $3 END,
                  last_checked_at = CASE WHEN url IS NULL THEN last_checked_at ELSE $3 END,
                  last_error = NULL, failing_since = NULL, failures = 0, lease_until = NULL, next_read_at = $4
            WHERE id = $1 AND lease_until = $2`,
          [
            ...common,
            outcome.calendar?.text ?? null,
            outcome.calendar?.format ?? null,
            outcome.etag,
            outcome.calendar ? JSON.stringify(outcome.problems) : null,
          ],
        )
      : await queryChanged(
          tx,
          `UPDATE ${this.t.scheduleSources}
              SET last_checked_at = $3, last_error = $5, failing_since = coalesce(failing_since, $3),
                  failures = failures + 1, lease_until = NULL, next_read_at = $4
            WHERE id = $1 AND lease_until = $2`,
          [...common, outcome.error.slice(0, 1000)],
        );
    return count > 0;
  }
}
