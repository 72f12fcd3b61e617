import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Every object media has issued a key for, from the moment of issue (pending) on. */
export class CreateObjects1732400000000 implements MigrationInterface {
  name = 'CreateObjects1732400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.objects (
        key varchar(128) PRIMARY KEY,
        owner_id varchar(64),
        content_type varchar(64),
        size integer CHECK (size >= 0),
        etag varchar(128),
        status varchar(16) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'registered', 'attached')),
        upload_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_modified timestamptz
      )`);
    // The cleanup looks for old pending objects only.
    await queryRunner.query(
      `CREATE INDEX objects_pending_created_idx ON ${s}.objects (created_at) WHERE status = 'pending'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.objects`);
  }
}
