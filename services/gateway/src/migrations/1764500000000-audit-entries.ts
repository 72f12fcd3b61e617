import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The audit log: who did what, when, from where, and the fields before and after. */
export class AuditEntries1764500000000 implements MigrationInterface {
  name = 'AuditEntries1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.audit_entries (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL,
        actor_id uuid,
        actor_name varchar(64),
        api_token_id uuid,
        request_id varchar(128) NOT NULL,
        client_address varchar(64) NOT NULL,
        action varchar(32) NOT NULL,
        entity_type varchar(32) NOT NULL,
        entity_id varchar(200),
        before jsonb,
        after jsonb
      )`);
    // The room detail and User Management ask for one entity's entries, newest first.
    await queryRunner.query(
      `CREATE INDEX audit_entries_entity_idx ON ${s}.audit_entries (entity_type, entity_id, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX audit_entries_actor_idx ON ${s}.audit_entries (actor_id, id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_entries_at_idx ON ${s}.audit_entries (at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.audit_entries`);
  }
}
