import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The status messages whose checks are committed, by their stream message id, until the consumer's
 * acknowledgement floor passes them: a message committed but not acknowledged (a replica killed, an
 * acknowledgement wait run out while it waited in a replica's buffer) comes again, however many
 * newer checks came first, and is then recognised whole.
 */
export class HandledStatusMessages1765430000000 implements MigrationInterface {
  name = 'HandledStatusMessages1765430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.status_messages_handled (
        message_id text PRIMARY KEY,
        stream_seq bigint NOT NULL,
        handled_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX status_messages_handled_seq ON ${s}.status_messages_handled (stream_seq)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.status_messages_handled`);
  }
}
