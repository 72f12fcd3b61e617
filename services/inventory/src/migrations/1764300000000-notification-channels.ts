import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Notification channels and the deliveries to them. `deliveries` is an outbox: whoever decides
 * that a message goes out (the test button now, the alert engine later) inserts a row in its own
 * transaction, and the relay sends it after the commit, claiming due rows with SKIP LOCKED so
 * that each is sent by one replica. A row in `sending` holds a lease until `next_attempt_at`: a
 * replica that died mid-send leaves it to be claimed again once the lease is over.
 */
export class NotificationChannels1764300000000 implements MigrationInterface {
  name = 'NotificationChannels1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.notification_channels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(120) NOT NULL,
        type text NOT NULL CHECK (type IN ('webhook', 'email')),
        url varchar(2048),
        recipients text[],
        enabled boolean NOT NULL DEFAULT true,
        building_ids uuid[],
        secret text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((type = 'webhook') = (url IS NOT NULL AND secret IS NOT NULL)),
        CHECK ((type = 'email') = (recipients IS NOT NULL))
      )`);
    await queryRunner.query(`
      CREATE TABLE ${s}.deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        channel_id uuid NOT NULL REFERENCES ${s}.notification_channels (id) ON DELETE CASCADE,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz DEFAULT now(),
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    // The relay's question: what is due. Only rows not yet done are in it, so it stays small.
    await queryRunner.query(
      `CREATE INDEX deliveries_due_idx ON ${s}.deliveries (next_attempt_at) WHERE state IN ('pending', 'sending')`,
    );
    // The log, newest first, over all channels or one.
    await queryRunner.query(
      `CREATE INDEX deliveries_created_idx ON ${s}.deliveries (created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX deliveries_channel_idx ON ${s}.deliveries (channel_id, created_at DESC, id DESC)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.deliveries`);
    await queryRunner.query(`DROP TABLE ${s}.notification_channels`);
  }
}
