import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Class schedules (issue 38). A source is a feed (url) or an uploaded file, for one room or one
 * building; its last good calendar text is kept, so that it is expanded afresh as the days pass
 * and when a location is mapped, without fetching it again. `next_read_at` and `lease_until` make
 * each read happen on one replica (claimed with SKIP LOCKED, as the delivery outbox does).
 *
 * Occurrences are the expanded classes, a day back and 14 ahead. Their indexes answer what later
 * phases ask: "classes starting between t1 and t2" (starts_at) and "the class in progress in room
 * R at t" (room_id, starts_at: a room has a few classes a day, so the rows before t are few).
 */
export class Schedules1765400000000 implements MigrationInterface {
  name = 'Schedules1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.schedule_sources (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(120) NOT NULL,
        room_id uuid REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        building_id uuid REFERENCES ${s}.buildings (id) ON DELETE CASCADE,
        url varchar(2048),
        file_name varchar(255),
        calendar_text text,
        calendar_format varchar(3) CHECK (calendar_format IN ('ics', 'csv')),
        etag varchar(512),
        last_good_at timestamptz,
        last_checked_at timestamptz,
        failing_since timestamptz,
        last_error varchar(1000),
        problems jsonb NOT NULL DEFAULT '[]',
        failures integer NOT NULL DEFAULT 0,
        next_read_at timestamptz,
        lease_until timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((room_id IS NULL) <> (building_id IS NULL))
      )`);
    await queryRunner.query(
      `CREATE INDEX schedule_sources_due_idx ON ${s}.schedule_sources (next_read_at) WHERE next_read_at IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE TABLE ${s}.schedule_occurrences (
        id bigserial PRIMARY KEY,
        source_id uuid NOT NULL REFERENCES ${s}.schedule_sources (id) ON DELETE CASCADE,
        room_id uuid REFERENCES ${s}.rooms (id) ON DELETE SET NULL,
        uid varchar(500) NOT NULL,
        title varchar(500) NOT NULL,
        location varchar(500),
        location_key varchar(500),
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL CHECK (ends_at >= starts_at)
      )`);
    await queryRunner.query(
      `CREATE INDEX schedule_occurrences_room_idx ON ${s}.schedule_occurrences (room_id, starts_at) WHERE room_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX schedule_occurrences_start_idx ON ${s}.schedule_occurrences (starts_at) INCLUDE (room_id) WHERE room_id IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX schedule_occurrences_source_idx ON ${s}.schedule_occurrences (source_id, location_key)`,
    );
    await queryRunner.query(
      `CREATE INDEX schedule_occurrences_location_idx ON ${s}.schedule_occurrences (location_key)`,
    );
    // A LOCATION text mapped to a room once, for every building schedule that writes it.
    await queryRunner.query(`
      CREATE TABLE ${s}.schedule_locations (
        location_key varchar(500) PRIMARY KEY,
        location varchar(500) NOT NULL,
        room_id uuid NOT NULL REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.schedule_locations`);
    await queryRunner.query(`DROP TABLE ${s}.schedule_occurrences`);
    await queryRunner.query(`DROP TABLE ${s}.schedule_sources`);
  }
}
