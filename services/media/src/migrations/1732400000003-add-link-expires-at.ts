import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * When an upload link's signature runs out: until then the gateway forwards PUTs to its key.
 * Rows from before have none, so their links (which lived 15 minutes) are no longer forwarded.
 */
export class AddLinkExpiresAt1732400000003 implements MigrationInterface {
  name = 'AddLinkExpiresAt1732400000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${schemaOf(queryRunner)}.objects ADD COLUMN link_expires_at timestamptz`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${schemaOf(queryRunner)}.objects DROP COLUMN link_expires_at`);
  }
}
