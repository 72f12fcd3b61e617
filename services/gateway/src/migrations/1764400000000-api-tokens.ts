import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * API tokens, kept beside the sessions they stand in for: the gateway checks one on every request
 * it is sent with, without a round trip to another service. Only a token's SHA-256 is kept.
 */
export class ApiTokens1764400000000 implements MigrationInterface {
  name = 'ApiTokens1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        name varchar(120) NOT NULL,
        role varchar(16) NOT NULL,
        token_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        last_used_at timestamptz
      )`);
    await queryRunner.query(`CREATE INDEX api_tokens_user_idx ON ${s}.api_tokens (user_id, created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.api_tokens`);
  }
}
