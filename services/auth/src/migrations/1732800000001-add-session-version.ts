import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Which sessions of a user still count: raised by a password change or a deactivation. */
export class AddSessionVersion1732800000001 implements MigrationInterface {
  name = 'AddSessionVersion1732800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${schemaOf(queryRunner)}.users ADD COLUMN session_version integer NOT NULL DEFAULT 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${schemaOf(queryRunner)}.users DROP COLUMN session_version`);
  }
}
