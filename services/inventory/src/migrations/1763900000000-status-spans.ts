import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Newest observations of a device kept in its state row (see `status/timeline.ts`). */
const RECENT_LIMIT = 32;

/**
 * Those times are epoch milliseconds: the service compares them in milliseconds, and an array of
 * integers costs far less to read and write on every check than one of timestamps.
 */
const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;

/**
 * Replaces the row-per-ping status history with what changes and what adds up:
 *
 * - `equipment_state`, one narrow row per equipment, rewritten by every check: when it was last
 *   checked, its last round trip, the open span, the times of its newest observations in epoch
 *   milliseconds (so a late check can be placed exactly) and today's ping counters;
 * - `status_spans`, one row per run of the same status: a device whose status does not change
 *   costs no new row however often it is pinged;
 * - `status_days`, per device and UTC day: checks, answers, pings and round trips.
 *
 * The existing history is converted (nobody loses their uptime on upgrade), then dropped.
 */
export class StatusSpans1763900000000 implements MigrationInterface {
  name = 'StatusSpans1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    // fillfactor: room on each page for the next version of a row, so the per-sweep update stays
    // a heap-only update that touches no index.
    await queryRunner.query(`
      CREATE TABLE ${s}.equipment_state (
        equipment_id uuid PRIMARY KEY REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        status_at timestamptz NOT NULL DEFAULT now(),
        last_checked_at timestamptz,
        last_rtt_ms real,
        last_sweep_id varchar(64),
        recent bigint[] NOT NULL DEFAULT '{}',
        span_started_at timestamptz,
        span_status varchar(16),
        day date,
        day_checks integer NOT NULL DEFAULT 0,
        day_answered integer NOT NULL DEFAULT 0,
        day_pings integer NOT NULL DEFAULT 0,
        day_pings_answered integer NOT NULL DEFAULT 0,
        day_rtt_min real,
        day_rtt_max real,
        day_rtt_sum double precision NOT NULL DEFAULT 0
      ) WITH (fillfactor = 50)`);

    await queryRunner.query(`
      CREATE TABLE ${s}.status_spans (
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        status varchar(16) NOT NULL CHECK (status IN ('active', 'inactive', 'maintenance', 'partial')),
        PRIMARY KEY (equipment_id, started_at),
        CHECK (ended_at IS NULL OR ended_at > started_at)
      )`);
    // Retention removes spans that ended long ago.
    await queryRunner.query(`CREATE INDEX status_spans_ended_idx ON ${s}.status_spans (ended_at)`);

    await queryRunner.query(`
      CREATE TABLE ${s}.status_days (
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        day date NOT NULL,
        checks integer NOT NULL,
        answered integer NOT NULL,
        pings integer NOT NULL,
        pings_answered integer NOT NULL,
        rtt_min real,
        rtt_max real,
        rtt_sum double precision NOT NULL,
        PRIMARY KEY (equipment_id, day)
      )`);
    await queryRunner.query(`CREATE INDEX status_days_day_idx ON ${s}.status_days (day)`);

    // Every equipment gets its state row and first span as it is inserted, whichever way (the
    // API, bulk SQL): the same reason the outbox uses a trigger.
    await queryRunner.query(`
      CREATE FUNCTION ${s}.equipment_state_init() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        at timestamptz := date_trunc('milliseconds', now());
      BEGIN
        INSERT INTO ${s}.equipment_state (equipment_id, status_at, recent, span_started_at, span_status)
        VALUES (NEW.id, at, ARRAY[${epochMs('at')}], at, NEW.status);
        INSERT INTO ${s}.status_spans (equipment_id, started_at, status) VALUES (NEW.id, at, NEW.status);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER equipment_state_init AFTER INSERT ON ${s}.equipment
      FOR EACH ROW EXECUTE FUNCTION ${s}.equipment_state_init()`);

    await this.convertHistory(queryRunner, s);

    await queryRunner.query(`ALTER TABLE ${s}.equipment DROP COLUMN last_checked_at, DROP COLUMN status_at`);
    await queryRunner.query(`DROP TABLE ${s}.equipment_status_history`);
  }

  /**
   * Spans are the history's runs of one status (of several rows at one instant, the last one
   * counts, as the old report ordered them); the state takes each device's newest rows. Times
   * are kept to the millisecond, the precision the services compare them in.
   */
  private async convertHistory(queryRunner: QueryRunner, s: string): Promise<void> {
    await queryRunner.query(`
      CREATE TEMPORARY TABLE history_points ON COMMIT DROP AS
      SELECT DISTINCT ON (equipment_id, date_trunc('milliseconds', checked_at))
             equipment_id, date_trunc('milliseconds', checked_at) AS checked_at, status
        FROM ${s}.equipment_status_history
       ORDER BY equipment_id, date_trunc('milliseconds', checked_at), id DESC`);
    await queryRunner.query(`
      INSERT INTO ${s}.status_spans (equipment_id, started_at, ended_at, status)
      SELECT equipment_id, checked_at,
             lead(checked_at) OVER (PARTITION BY equipment_id ORDER BY checked_at), status
        FROM (SELECT equipment_id, checked_at, status,
                     lag(status) OVER (PARTITION BY equipment_id ORDER BY checked_at) AS previous
                FROM history_points) p
       WHERE previous IS DISTINCT FROM status`);
    await queryRunner.query(`
      INSERT INTO ${s}.equipment_state (equipment_id, status_at, last_checked_at, last_rtt_ms, last_sweep_id,
                                        recent, span_started_at, span_status)
      SELECT e.id, date_trunc('milliseconds', e.status_at), date_trunc('milliseconds', e.last_checked_at),
             last_check.rtt_ms, last_check.sweep_id,
             COALESCE(recent.times, '{}'), open_span.started_at, open_span.status
        FROM ${s}.equipment e
        LEFT JOIN LATERAL (
          SELECT h.rtt_ms, NULLIF(split_part(h.event_id, ':', 2), '') AS sweep_id
            FROM ${s}.equipment_status_history h
           WHERE h.equipment_id = e.id AND h.source = 'monitor'
           ORDER BY h.checked_at DESC, h.id DESC LIMIT 1) last_check ON true
        LEFT JOIN LATERAL (
          SELECT array_agg(${epochMs('checked_at')} ORDER BY checked_at) AS times
            FROM (SELECT checked_at FROM history_points p WHERE p.equipment_id = e.id
                   ORDER BY checked_at DESC LIMIT ${RECENT_LIMIT}) newest) recent ON true
        LEFT JOIN ${s}.status_spans open_span ON open_span.equipment_id = e.id AND open_span.ended_at IS NULL`);
    await queryRunner.query(`
      INSERT INTO ${s}.status_days (equipment_id, day, checks, answered, pings, pings_answered, rtt_min, rtt_max,
                                    rtt_sum)
      SELECT h.equipment_id, (h.checked_at AT TIME ZONE 'UTC')::date, count(*), count(h.rtt_ms),
             COALESCE(sum(jsonb_array_length(h.results)), 0),
             COALESCE(sum((SELECT count(*) FROM jsonb_array_elements(h.results) r
                            WHERE (r ->> 'alive')::boolean)), 0),
             min(h.rtt_ms), max(h.rtt_ms), COALESCE(sum(h.rtt_ms), 0)
        FROM ${s}.equipment_status_history h
       WHERE h.source = 'monitor'
       GROUP BY 1, 2`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.equipment_status_history (
        id bigserial PRIMARY KEY,
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        status varchar(16) NOT NULL,
        checked_at timestamptz NOT NULL,
        rtt_ms double precision,
        results jsonb,
        source varchar(16) NOT NULL CHECK (source IN ('monitor', 'manual')),
        event_id varchar(64),
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX status_history_event_idx ON ${s}.equipment_status_history (event_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX status_history_equipment_time_idx ON ${s}.equipment_status_history (equipment_id, checked_at)`,
    );
    await queryRunner.query(
      `CREATE INDEX status_history_checked_idx ON ${s}.equipment_status_history (checked_at)`,
    );
    // Each span start becomes one history row: the same uptime, without the individual pings.
    await queryRunner.query(`
      INSERT INTO ${s}.equipment_status_history (equipment_id, status, checked_at, source)
      SELECT equipment_id, status, started_at, 'monitor' FROM ${s}.status_spans`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment ADD COLUMN last_checked_at timestamptz,
                                 ADD COLUMN status_at timestamptz NOT NULL DEFAULT now()`);
    await queryRunner.query(`
      UPDATE ${s}.equipment e SET last_checked_at = st.last_checked_at, status_at = st.status_at
        FROM ${s}.equipment_state st WHERE st.equipment_id = e.id`);
    await queryRunner.query(`DROP TRIGGER equipment_state_init ON ${s}.equipment`);
    await queryRunner.query(`DROP FUNCTION ${s}.equipment_state_init()`);
    await queryRunner.query(`DROP TABLE ${s}.status_days`);
    await queryRunner.query(`DROP TABLE ${s}.status_spans`);
    await queryRunner.query(`DROP TABLE ${s}.equipment_state`);
  }
}
