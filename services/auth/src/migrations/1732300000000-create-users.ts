import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

export class CreateUsers1732300000000 implements MigrationInterface {
  name = 'CreateUsers1732300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username varchar(64) NOT NULL,
        password_hash text NOT NULL,
        email varchar(254),
        first_name varchar(120),
        last_name varchar(120),
        role varchar(16) NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
        is_active smallint NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Usernames and emails are unique regardless of case: "Admin" and "admin" are one person.
    await queryRunner.query(`CREATE UNIQUE INDEX users_username_key ON ${s}.users (lower(username))`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX users_email_key ON ${s}.users (lower(email)) WHERE email IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ${schemaOf(queryRunner)}.users`);
  }
}
