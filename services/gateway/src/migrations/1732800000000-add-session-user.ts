import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The user of each session as a column of its own, taken from the session data by PostgreSQL
 * itself (the session library writes only sid, sess and expire), so that an account change can
 * end every session of that user on every replica with one indexed delete.
 */
export class AddSessionUser1732800000000 implements MigrationInterface {
  name = 'AddSessionUser1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(
      `ALTER TABLE ${s}.sessions ADD COLUMN user_id uuid GENERATED ALWAYS AS ((sess->>'userId')::uuid) STORED`,
    );
    await queryRunner.query(`CREATE INDEX sessions_user_id_idx ON ${s}.sessions (user_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${schemaOf(queryRunner)}.sessions DROP COLUMN user_id`);
  }
}
