import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Channel types beyond webhook and e-mail: Teams, Slack and Matrix chat rooms now, the service
 * desks (ServiceNow, Jira Service Management) next. `settings` holds what a type has besides its
 * URL that is not a credential (a Matrix room id); a credential (a Matrix access token) is sealed
 * in `secret`, as a webhook's signing secret is. The checks per type replace the two of
 * webhook and e-mail.
 */
export class ChatChannels1765390000000 implements MigrationInterface {
  name = 'ChatChannels1765390000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await dropChecks(queryRunner, s);
    await queryRunner.query(
      `ALTER TABLE ${s}.notification_channels ADD COLUMN settings jsonb NOT NULL DEFAULT '{}'::jsonb`,
    );
    await queryRunner.query(`
      ALTER TABLE ${s}.notification_channels
        ADD CONSTRAINT notification_channels_type_check
          CHECK (type IN ('webhook', 'email', 'teams', 'slack', 'matrix', 'servicenow', 'jira-service-management')),
        ADD CONSTRAINT notification_channels_url_check CHECK ((type = 'email') = (url IS NULL)),
        ADD CONSTRAINT notification_channels_recipients_check CHECK ((type = 'email') = (recipients IS NOT NULL)),
        ADD CONSTRAINT notification_channels_secret_check
          CHECK (type NOT IN ('webhook', 'matrix', 'servicenow', 'jira-service-management') OR secret IS NOT NULL),
        ADD CONSTRAINT notification_channels_room_check CHECK (type <> 'matrix' OR settings ? 'roomId')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DELETE FROM ${s}.notification_channels WHERE type NOT IN ('webhook', 'email')`);
    await dropChecks(queryRunner, s);
    await queryRunner.query(`ALTER TABLE ${s}.notification_channels DROP COLUMN settings`);
    await queryRunner.query(`
      ALTER TABLE ${s}.notification_channels
        ADD CHECK (type IN ('webhook', 'email')),
        ADD CHECK ((type = 'webhook') = (url IS NOT NULL AND secret IS NOT NULL)),
        ADD CHECK ((type = 'email') = (recipients IS NOT NULL))`);
  }
}

/** The table's checks, whatever PostgreSQL named them when they were made inline. */
async function dropChecks(queryRunner: QueryRunner, s: string): Promise<void> {
  await queryRunner.query(`
    DO $$
    DECLARE c record;
    BEGIN
      FOR c IN SELECT conname FROM pg_constraint
                WHERE conrelid = '${s}.notification_channels'::regclass AND contype = 'c' LOOP
        EXECUTE format('ALTER TABLE ${s}.notification_channels DROP CONSTRAINT %I', c.conname);
      END LOOP;
    END $$`);
}
