import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The checked lines of a CSV import while the gateway sends them, a batch per row: a file of
 * 50,000 lines does not fit in one NATS message, and any replica may answer the run.
 */
export class ImportStaging1764550000000 implements MigrationInterface {
  name = 'ImportStaging1764550000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.import_batches (
        import_id uuid NOT NULL,
        seq integer NOT NULL,
        rows jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (import_id, seq)
      )`);
    // Batches of an import that never ran (the gateway went away) are deleted by age.
    await queryRunner.query(`CREATE INDEX import_batches_created_idx ON ${s}.import_batches (created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.import_batches`);
  }
}
