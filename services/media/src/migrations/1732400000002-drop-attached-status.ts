import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `attached` was reserved for objects a room or building uses, but nothing ever set it: whether
 * an object is used is inventory's knowledge (the rooms' and buildings' URLs), not media's.
 */
export class DropAttachedStatus1732400000002 implements MigrationInterface {
  name = 'DropAttachedStatus1732400000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`UPDATE ${s}.objects SET status = 'registered' WHERE status = 'attached'`);
    await queryRunner.query(`
      ALTER TABLE ${s}.objects
        DROP CONSTRAINT objects_status_check,
        ADD CONSTRAINT objects_status_check CHECK (status IN ('pending', 'registered'))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE ${schemaOf(queryRunner)}.objects
        DROP CONSTRAINT objects_status_check,
        ADD CONSTRAINT objects_status_check CHECK (status IN ('pending', 'registered', 'attached'))`);
  }
}
