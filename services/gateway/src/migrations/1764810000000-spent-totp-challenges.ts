import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The two-factor challenges that have signed someone in, until they expire: a challenge is
 * good for one sign-in, on whichever replica it is presented.
 */
export class SpentTotpChallenges1764810000000 implements MigrationInterface {
  name = 'SpentTotpChallenges1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.spent_totp_challenges (
        id varchar(32) PRIMARY KEY,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX spent_totp_challenges_expires_idx ON ${s}.spent_totp_challenges (expires_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.spent_totp_challenges`);
  }
}
