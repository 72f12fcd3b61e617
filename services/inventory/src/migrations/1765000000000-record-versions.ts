import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

const versionedTables = ['buildings', 'rooms', 'equipment'] as const;

/**
 * Each building, room and equipment counts its edits: the API answers the count as the record's
 * `ETag` and refuses a write whose `If-Match` names an older one (an edit queued offline while
 * somebody else changed the record). Only edits made through the API count; the monitor's status
 * writes do not, so a device that goes offline does not make a technician's queued edit stale.
 */
export class RecordVersions1765000000000 implements MigrationInterface {
  name = 'RecordVersions1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of versionedTables)
      await queryRunner.query(`ALTER TABLE ${s}.${table} ADD COLUMN version integer NOT NULL DEFAULT 1`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of versionedTables)
      await queryRunner.query(`ALTER TABLE ${s}.${table} DROP COLUMN version`);
  }
}
