import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Failed sign-ins per username and per client address, shared by every gateway replica. */
export class CreateLoginFailures1732600000000 implements MigrationInterface {
  name = 'CreateLoginFailures1732600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.login_failures (
        key varchar(300) NOT NULL PRIMARY KEY,
        failures integer NOT NULL,
        window_start timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX login_failures_window_idx ON ${s}.login_failures (window_start)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.login_failures`);
  }
}
