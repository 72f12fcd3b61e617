import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Buildings, rooms, equipment, the status history, and the outbox of equipment change events.
 * Column widths follow the contract limits.
 */
export class CreateInventory1732500000000 implements MigrationInterface {
  name = 'CreateInventory1732500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.buildings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name varchar(120) NOT NULL,
        description varchar(2000),
        image_url varchar(2048),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The list is ordered by name without regard to case.
    await queryRunner.query(`CREATE INDEX buildings_name_idx ON ${s}.buildings (lower(name), id)`);

    await queryRunner.query(`
      CREATE TABLE ${s}.rooms (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        building_id uuid NOT NULL REFERENCES ${s}.buildings (id) ON DELETE CASCADE,
        name varchar(120) NOT NULL,
        type varchar(32) NOT NULL,
        floor varchar(32) NOT NULL,
        capacity integer NOT NULL DEFAULT 0 CHECK (capacity >= 0),
        room_size varchar(120),
        is_ada_accessible smallint NOT NULL DEFAULT 1 CHECK (is_ada_accessible IN (0, 1)),
        image_url varchar(2048),
        wiring_diagram_url varchar(2048),
        seating_layout_url varchar(2048),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A building's rooms (list and count), and the cascade from a building.
    await queryRunner.query(`CREATE INDEX rooms_building_idx ON ${s}.rooms (building_id, lower(name), id)`);

    await queryRunner.query(`
      CREATE TABLE ${s}.equipment (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        room_id uuid NOT NULL REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        name varchar(120) NOT NULL,
        model varchar(120),
        serial_number varchar(120),
        ip_address varchar(32),
        status varchar(16) NOT NULL DEFAULT 'active'
          CHECK (status IN ('active', 'inactive', 'maintenance', 'partial')),
        notes varchar(4000),
        image_url varchar(2048),
        type varchar(120),
        last_checked_at timestamptz,
        status_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX equipment_room_idx ON ${s}.equipment (room_id, lower(name), id)`);
    // The monitor pages through equipment with an address, by id.
    await queryRunner.query(
      `CREATE INDEX equipment_targets_idx ON ${s}.equipment (id) WHERE ip_address IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE ${s}.equipment_status_history (
        id bigserial PRIMARY KEY,
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        status varchar(16) NOT NULL,
        checked_at timestamptz NOT NULL,
        rtt_ms double precision,
        results jsonb,
        source varchar(16) NOT NULL CHECK (source IN ('monitor', 'manual')),
        event_id varchar(64),
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
    // The idempotency key of status events: a redelivered event inserts nothing.
    await queryRunner.query(
      `CREATE UNIQUE INDEX status_history_event_idx ON ${s}.equipment_status_history (event_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX status_history_equipment_time_idx ON ${s}.equipment_status_history (equipment_id, checked_at)`,
    );
    // Retention deletes by age.
    await queryRunner.query(
      `CREATE INDEX status_history_checked_idx ON ${s}.equipment_status_history (checked_at)`,
    );

    // Outbox: written in the transaction that changes the equipment, published after it commits.
    await queryRunner.query(`
      CREATE TABLE ${s}.equipment_events (
        seq bigserial PRIMARY KEY,
        event_id uuid NOT NULL DEFAULT gen_random_uuid(),
        kind varchar(16) NOT NULL CHECK (kind IN ('created', 'addressChanged', 'deleted')),
        equipment_id uuid NOT NULL,
        ip_address varchar(32),
        previous_ip_address varchar(32),
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // A trigger, so that every way equipment changes is caught: the API, the cascades from a
    // room or a building (which delete rows without the service seeing them), and bulk SQL.
    await queryRunner.query(`
      CREATE FUNCTION ${s}.equipment_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO ${s}.equipment_events (kind, equipment_id, ip_address, previous_ip_address)
          VALUES ('created', NEW.id, NEW.ip_address, NULL);
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO ${s}.equipment_events (kind, equipment_id, ip_address, previous_ip_address)
          VALUES ('addressChanged', NEW.id, NEW.ip_address, OLD.ip_address);
        ELSE
          INSERT INTO ${s}.equipment_events (kind, equipment_id, ip_address, previous_ip_address)
          VALUES ('deleted', OLD.id, NULL, OLD.ip_address);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER equipment_created AFTER INSERT ON ${s}.equipment
      FOR EACH ROW WHEN (NEW.ip_address IS NOT NULL) EXECUTE FUNCTION ${s}.equipment_outbox()`);
    await queryRunner.query(`
      CREATE TRIGGER equipment_readdressed AFTER UPDATE OF ip_address ON ${s}.equipment
      FOR EACH ROW WHEN (OLD.ip_address IS DISTINCT FROM NEW.ip_address) EXECUTE FUNCTION ${s}.equipment_outbox()`);
    await queryRunner.query(`
      CREATE TRIGGER equipment_deleted AFTER DELETE ON ${s}.equipment
      FOR EACH ROW WHEN (OLD.ip_address IS NOT NULL) EXECUTE FUNCTION ${s}.equipment_outbox()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.equipment_events`);
    await queryRunner.query(`DROP TABLE ${s}.equipment_status_history`);
    await queryRunner.query(`DROP TABLE ${s}.equipment`);
    await queryRunner.query(`DROP FUNCTION ${s}.equipment_outbox()`);
    await queryRunner.query(`DROP TABLE ${s}.rooms`);
    await queryRunner.query(`DROP TABLE ${s}.buildings`);
  }
}
