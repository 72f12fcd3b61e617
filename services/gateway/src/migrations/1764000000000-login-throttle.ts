import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { CreateLoginFailures1732600000000 } from './1732600000000-create-login-failures';

/**
 * Sign-in counters per (username, client), per client and per device cookie, replacing the
 * per-username windows (whose counts mean something else, so they are not carried over).
 */
export class LoginThrottle1764000000000 implements MigrationInterface {
  name = 'LoginThrottle1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.login_throttle (
        key varchar(300) NOT NULL PRIMARY KEY,
        username varchar(64),
        failures integer NOT NULL DEFAULT 0,
        pending integer NOT NULL DEFAULT 0,
        last_failure_at timestamptz,
        touched_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX login_throttle_username_idx ON ${s}.login_throttle (username)`);
    await queryRunner.query(`CREATE INDEX login_throttle_touched_idx ON ${s}.login_throttle (touched_at)`);
    await queryRunner.query(`DROP TABLE ${s}.login_failures`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await new CreateLoginFailures1732600000000().up(queryRunner);
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.login_throttle`);
  }
}
