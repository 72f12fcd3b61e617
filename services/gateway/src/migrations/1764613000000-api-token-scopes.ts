import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * API token scopes (read, write, admin). Tokens made before them keep doing what they did: one
 * with the admin role gets the admin scope, any other the write scope. New tokens say theirs.
 */
export class ApiTokenScopes1764613000000 implements MigrationInterface {
  name = 'ApiTokenScopes1764613000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE ${s}.api_tokens ADD COLUMN scope varchar(8)`);
    await queryRunner.query(
      `UPDATE ${s}.api_tokens SET scope = CASE WHEN role = 'admin' THEN 'admin' ELSE 'write' END`,
    );
    await queryRunner.query(`ALTER TABLE ${s}.api_tokens ALTER COLUMN scope SET NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE ${schemaOf(queryRunner)}.api_tokens DROP COLUMN scope`);
  }
}
