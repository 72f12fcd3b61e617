import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Whether monitoring runs, kept for the monitor, whose own copy in NATS KV is lost with NATS's
 * store. One row, written at each start and stop; none until the first.
 */
export class MonitoringState1764700000000 implements MigrationInterface {
  name = 'MonitoringState1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.monitoring_state (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        is_running boolean NOT NULL,
        interval_ms integer NOT NULL CHECK (interval_ms > 0),
        changed_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.monitoring_state`);
  }
}
