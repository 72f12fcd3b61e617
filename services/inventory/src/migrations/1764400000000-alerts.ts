import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The alert engine's state. `alerts`: one row per room alert, at most one open per room (the
 * partial unique index), with the devices its last message named. Each equipment's side sits in
 * its `equipment_state` row, which the status batch already locks: the consecutive failed checks,
 * the open alert it is in, the times its alert state changed in the last hour (flapping) and when
 * it was reported flapping. A delivery queued for an alert names it, so a message still waiting
 * can be rewritten instead of followed by another.
 */
export class Alerts1764400000000 implements MigrationInterface {
  name = 'Alerts1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.alerts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id uuid NOT NULL REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        opened_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        devices jsonb NOT NULL DEFAULT '[]'
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX alerts_open_room_idx ON ${s}.alerts (room_id) WHERE closed_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX alerts_room_idx ON ${s}.alerts (room_id, opened_at DESC)`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
        ADD COLUMN alert_failed_checks integer NOT NULL DEFAULT 0,
        ADD COLUMN alert_id uuid REFERENCES ${s}.alerts (id) ON DELETE SET NULL,
        ADD COLUMN alert_since timestamptz,
        ADD COLUMN alert_changes bigint[] NOT NULL DEFAULT '{}',
        ADD COLUMN alert_flapping_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX equipment_state_alert_idx ON ${s}.equipment_state (alert_id) WHERE alert_id IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE ${s}.deliveries ADD COLUMN alert_id uuid REFERENCES ${s}.alerts (id) ON DELETE SET NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX deliveries_alert_idx ON ${s}.deliveries (alert_id) WHERE alert_id IS NOT NULL AND state = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE ${s}.deliveries DROP COLUMN alert_id`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_state
        DROP COLUMN alert_failed_checks, DROP COLUMN alert_id, DROP COLUMN alert_since,
        DROP COLUMN alert_changes, DROP COLUMN alert_flapping_at`);
    await queryRunner.query(`DROP TABLE ${s}.alerts`);
  }
}
