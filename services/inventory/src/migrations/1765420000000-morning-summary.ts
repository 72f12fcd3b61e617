import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 38, the rest: a building may hold the alerts of a room with no more classes that day for
 * the next morning's digest (`idle_rooms_wait`); the morning readiness summary's settings (one
 * row) and the days it went out (the primary key makes one replica send each day's).
 */
export class MorningSummary1765420000000 implements MigrationInterface {
  name = 'MorningSummary1765420000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(
      `ALTER TABLE ${s}.building_quiet_hours ADD COLUMN idle_rooms_wait boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.readiness_summary (
        id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        send_at varchar(5),
        time_zone text NOT NULL,
        channel_ids uuid[] NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.readiness_summaries_sent (
        day date PRIMARY KEY,
        sent_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.readiness_summaries_sent`);
    await queryRunner.query(`DROP TABLE ${s}.readiness_summary`);
    await queryRunner.query(`ALTER TABLE ${s}.building_quiet_hours DROP COLUMN idle_rooms_wait`);
  }
}
