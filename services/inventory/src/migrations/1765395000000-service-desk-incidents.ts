import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The incidents room alerts opened in service desks (ServiceNow, Jira Service Management): one
 * per channel and alert (the episode), found again by its correlation key, so a retry or a
 * second replica never opens a second. `lease_until` lets one attempt at a time work on it
 * (remote calls are made outside any transaction). `noted_devices` are the devices the incident
 * last named, so that a change adds a note. `scheduled_runs` holds when periodic work last ran,
 * claimed by a conditional update so one replica does each round.
 */
export class ServiceDeskIncidents1765395000000 implements MigrationInterface {
  name = 'ServiceDeskIncidents1765395000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.service_desk_incidents (
        channel_id uuid NOT NULL REFERENCES ${s}.notification_channels (id) ON DELETE CASCADE,
        alert_id uuid NOT NULL,
        correlation_key text NOT NULL,
        remote_id text,
        number text,
        url text,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'resolved', 'closed')),
        noted_devices jsonb NOT NULL DEFAULT '[]',
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (channel_id, alert_id),
        UNIQUE (channel_id, correlation_key)
      )`);
    await queryRunner.query(
      `CREATE INDEX service_desk_incidents_alert_idx ON ${s}.service_desk_incidents (alert_id)`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.scheduled_runs (
        name text PRIMARY KEY,
        last_run_at timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.scheduled_runs`);
    await queryRunner.query(`DROP TABLE ${s}.service_desk_incidents`);
  }
}
