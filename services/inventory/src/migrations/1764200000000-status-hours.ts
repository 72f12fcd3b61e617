import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Hour counters, for the equipment timeline's hourly aggregates and its 24-hour loss. The
 * counters of the hour of a device's newest check live on its state row, in place of the day's:
 * when a later hour begins they are written out to `status_hours` and added to the day's row in
 * `status_days`, so a day is the sum of its hours written out, and the state row, rewritten by
 * every check, is no wider than before. Each state row's counters of its current day go to
 * `status_days` here, and its hour starts empty. Hours are kept for a shorter time than days
 * (INVENTORY_STATUS_HOURS_RETENTION_DAYS): 24 rows per device per day.
 */
export class StatusHours1764200000000 implements MigrationInterface {
  name = 'StatusHours1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      INSERT INTO ${s}.status_days AS d (equipment_id, day, checks, answered, pings, pings_answered, rtt_min,
                                         rtt_max, rtt_sum)
      SELECT equipment_id, day, day_checks, day_answered, day_pings, day_pings_answered, day_rtt_min, day_rtt_max,
             day_rtt_sum
        FROM ${s}.equipment_state
       WHERE day IS NOT NULL AND day_checks > 0
      ON CONFLICT (equipment_id, day) DO UPDATE
         SET checks = d.checks + excluded.checks, answered = d.answered + excluded.answered,
             pings = d.pings + excluded.pings, pings_answered = d.pings_answered + excluded.pings_answered,
             rtt_min = LEAST(d.rtt_min, excluded.rtt_min), rtt_max = GREATEST(d.rtt_max, excluded.rtt_max),
             rtt_sum = d.rtt_sum + excluded.rtt_sum`);
    // Constant defaults: adding them rewrites no row of a large table.
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
        DROP COLUMN day, DROP COLUMN day_checks, DROP COLUMN day_answered, DROP COLUMN day_pings,
        DROP COLUMN day_pings_answered, DROP COLUMN day_rtt_min, DROP COLUMN day_rtt_max, DROP COLUMN day_rtt_sum,
        ADD COLUMN hour timestamptz,
        ADD COLUMN hour_checks integer NOT NULL DEFAULT 0,
        ADD COLUMN hour_answered integer NOT NULL DEFAULT 0,
        ADD COLUMN hour_pings integer NOT NULL DEFAULT 0,
        ADD COLUMN hour_pings_answered integer NOT NULL DEFAULT 0,
        ADD COLUMN hour_rtt_min real,
        ADD COLUMN hour_rtt_max real,
        ADD COLUMN hour_rtt_sum double precision NOT NULL DEFAULT 0`);
    await queryRunner.query(`
      CREATE TABLE ${s}.status_hours (
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        hour timestamptz NOT NULL,
        checks integer NOT NULL,
        answered integer NOT NULL,
        pings integer NOT NULL,
        pings_answered integer NOT NULL,
        rtt_min real,
        rtt_max real,
        rtt_sum double precision NOT NULL,
        PRIMARY KEY (equipment_id, hour)
      )`);
    // Retention deletes whole old hours across every device.
    await queryRunner.query(`CREATE INDEX status_hours_hour_idx ON ${s}.status_hours (hour)`);
  }

  /** Back to day counters on the state row, empty: today's so far stay in `status_days`. */
  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.status_hours`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
        DROP COLUMN hour, DROP COLUMN hour_checks, DROP COLUMN hour_answered, DROP COLUMN hour_pings,
        DROP COLUMN hour_pings_answered, DROP COLUMN hour_rtt_min, DROP COLUMN hour_rtt_max, DROP COLUMN hour_rtt_sum,
        ADD COLUMN day date,
        ADD COLUMN day_checks integer NOT NULL DEFAULT 0,
        ADD COLUMN day_answered integer NOT NULL DEFAULT 0,
        ADD COLUMN day_pings integer NOT NULL DEFAULT 0,
        ADD COLUMN day_pings_answered integer NOT NULL DEFAULT 0,
        ADD COLUMN day_rtt_min real,
        ADD COLUMN day_rtt_max real,
        ADD COLUMN day_rtt_sum double precision NOT NULL DEFAULT 0`);
  }
}
