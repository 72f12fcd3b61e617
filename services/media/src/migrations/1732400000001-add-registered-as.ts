import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** A presigned upload is copied to a key of its own on registration; this points to that copy. */
export class AddRegisteredAs1732400000001 implements MigrationInterface {
  name = 'AddRegisteredAs1732400000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE ${schemaOf(queryRunner)}.objects ADD COLUMN registered_as varchar(128)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${schemaOf(queryRunner)}.objects DROP COLUMN registered_as`);
  }
}
