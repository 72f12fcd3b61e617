import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The readiness checks before classes (issue 38, phase 2): one row per room and class start,
 * inserted by the replica that claims the check (the primary key makes the claim exactly once
 * across replicas), then filled with what the room check found.
 */
export class Readiness1765410000000 implements MigrationInterface {
  name = 'Readiness1765410000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.readiness_checks (
        room_id uuid NOT NULL REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        starts_at timestamptz NOT NULL,
        claimed_at timestamptz NOT NULL,
        checked_at timestamptz,
        state varchar(12) CHECK (state IN ('ready', 'at-risk')),
        reasons jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (room_id, starts_at)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.readiness_checks`);
  }
}
