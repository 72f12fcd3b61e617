import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Users who sign in through an OpenID Connect provider: the issuer and the subject it names them
 * by (stable where a username or email may change), one account per pair. They have no password
 * here, so the hash may be null.
 */
export class AddExternalIdentity1764600000000 implements MigrationInterface {
  name = 'AddExternalIdentity1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner);
    await queryRunner.query(
      `ALTER TABLE ${schema}.users
         ALTER COLUMN password_hash DROP NOT NULL,
         ADD COLUMN external_issuer text,
         ADD COLUMN external_subject text,
         ADD CONSTRAINT users_external_identity_key UNIQUE (external_issuer, external_subject),
         ADD CONSTRAINT users_external_identity_whole
           CHECK ((external_issuer IS NULL) = (external_subject IS NULL)),
         ADD CONSTRAINT users_credential CHECK (password_hash IS NOT NULL OR external_subject IS NOT NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const schema = schemaOf(queryRunner);
    // An external user has no password to keep: they could not sign in after the downgrade.
    await queryRunner.query(`DELETE FROM ${schema}.users WHERE password_hash IS NULL`);
    await queryRunner.query(
      `ALTER TABLE ${schema}.users
         DROP CONSTRAINT users_credential,
         DROP CONSTRAINT users_external_identity_whole,
         DROP CONSTRAINT users_external_identity_key,
         DROP COLUMN external_subject,
         DROP COLUMN external_issuer,
         ALTER COLUMN password_hash SET NOT NULL`,
    );
  }
}
