import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Hour counters beside the day counters, for the equipment timeline's hourly aggregates and
 * its 24-hour loss: the counters of the hour of a device's newest check live on its state row
 * (rewritten by every check anyway), and go to `status_hours` when a later hour begins, as the
 * day counters do. They are kept for a shorter time than days (INVENTORY_STATUS_HOURS_RETENTION_DAYS):
 * 24 rows per device per day. Nothing is converted: hours start being counted on upgrade.
 */
export class StatusHours1764200000000 implements MigrationInterface {
  name = 'StatusHours1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    // Constant defaults: adding them rewrites no row of a large table.
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
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

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.status_hours`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
        DROP COLUMN hour, DROP COLUMN hour_checks, DROP COLUMN hour_answered, DROP COLUMN hour_pings,
        DROP COLUMN hour_pings_answered, DROP COLUMN hour_rtt_min, DROP COLUMN hour_rtt_max, DROP COLUMN hour_rtt_sum`);
  }
}
