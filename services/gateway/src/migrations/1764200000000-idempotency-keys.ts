import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The creates answered per Idempotency-Key, so that a retry after a lost answer gets the first
 * result on every replica instead of a second record.
 */
export class IdempotencyKeys1764200000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.idempotency_keys (
        user_id uuid NOT NULL,
        route varchar(300) NOT NULL,
        key varchar(128) NOT NULL,
        fingerprint char(64) NOT NULL,
        response jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, route, key)
      )`);
    await queryRunner.query(
      `CREATE INDEX idempotency_keys_created_idx ON ${s}.idempotency_keys (created_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.idempotency_keys`);
  }
}
