import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in: the secret sealed with AUTH_TOTP_KEY (set: enrolled), one waiting for its
 * first code during enrolment, the last time step a code was accepted for (no code is accepted
 * twice), and the recovery codes' hashes (each removed when used).
 */
export class AddTotp1764300000000 implements MigrationInterface {
  name = 'AddTotp1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${schemaOf(queryRunner)}.users
         ADD COLUMN totp_secret text,
         ADD COLUMN totp_pending_secret text,
         ADD COLUMN totp_last_step bigint,
         ADD COLUMN totp_recovery_codes text[] NOT NULL DEFAULT '{}'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${schemaOf(queryRunner)}.users
         DROP COLUMN totp_secret, DROP COLUMN totp_pending_secret,
         DROP COLUMN totp_last_step, DROP COLUMN totp_recovery_codes`,
    );
  }
}
