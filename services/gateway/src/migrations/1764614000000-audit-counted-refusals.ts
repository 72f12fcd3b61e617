import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Refusals of someone not signed in are counted into one entry per client address, minute and
 * kind (`sample_key`, null for every other entry) instead of one row each: a thousand refused
 * single sign-on callbacks were a thousand rows kept for AUDIT_RETENTION_DAYS. Existing entries
 * stand for one event each.
 */
export class AuditCountedRefusals1764614000000 implements MigrationInterface {
  name = 'AuditCountedRefusals1764614000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE ${s}.audit_entries ADD COLUMN count integer NOT NULL DEFAULT 1`);
    await queryRunner.query(`ALTER TABLE ${s}.audit_entries ADD COLUMN sample_key varchar(100)`);
    // What every replica's insert of a counted refusal meets on conflict, to add one instead.
    await queryRunner.query(
      `CREATE UNIQUE INDEX audit_entries_sample_idx ON ${s}.audit_entries (client_address, action, sample_key)
         WHERE sample_key IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP INDEX ${s}.audit_entries_sample_idx`);
    await queryRunner.query(`ALTER TABLE ${s}.audit_entries DROP COLUMN sample_key, DROP COLUMN count`);
  }
}
