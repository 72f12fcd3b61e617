import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Device health beyond ping (issue 36). Each equipment gets its probe settings (ICMP unless
 * chosen) and its probe secrets, sealed one by one with ALERTS_SECRET_KEY (the equipment id and
 * the secret's name bind each to its place). What probes read is kept as:
 *
 * - `equipment_health`: a row per probed equipment, rewritten by each reading (one statement per
 *   batch): the health the API answers, and what the next reading is judged against (the uptime
 *   and when it was read, for a reboot; the firmware, for a change; the day of the last lamp
 *   sample), with the lamps' and filter's hours of use per day as last forecast;
 * - `health_spans`: runs of one health state and its reasons, written only when they change (the
 *   equipment timeline);
 * - `health_days`: the lamp and filter hours at a device's first reading of each UTC day, for the
 *   forecast of when a lamp reaches its rated life (hours used per day over the last 30 days);
 * - `firmware_history`: each firmware a device was seen to move to, from what, and when.
 *
 * A change of the probe settings or secrets of equipment with an address writes a `probeChanged`
 * outbox event, so that the monitor reloads its probe targets.
 */
export class DeviceHealth1764900000000 implements MigrationInterface {
  name = 'DeviceHealth1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment
        ADD COLUMN probe jsonb NOT NULL DEFAULT '{"type": "icmp"}',
        ADD COLUMN probe_secrets jsonb NOT NULL DEFAULT '{}'`);
    // The monitor pages through the equipment it probes beyond ping, by id.
    await queryRunner.query(`
      CREATE INDEX equipment_probe_targets_idx ON ${s}.equipment (id)
       WHERE probe->>'type' <> 'icmp' AND ip_address IS NOT NULL AND strpos(ip_address, '-') = 0`);

    await queryRunner.query(`ALTER TABLE ${s}.equipment_events DROP CONSTRAINT equipment_events_kind_check`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_events ADD CONSTRAINT equipment_events_kind_check
        CHECK (kind IN ('created', 'addressChanged', 'deleted', 'probeChanged'))`);
    await queryRunner.query(`
      CREATE FUNCTION ${s}.equipment_probe_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO ${s}.equipment_events (kind, equipment_id, ip_address, previous_ip_address)
        VALUES ('probeChanged', NEW.id, NEW.ip_address, OLD.ip_address);
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER equipment_probe_changed AFTER UPDATE OF probe, probe_secrets ON ${s}.equipment
      FOR EACH ROW WHEN (NEW.ip_address IS NOT NULL
        AND (OLD.probe IS DISTINCT FROM NEW.probe OR OLD.probe_secrets IS DISTINCT FROM NEW.probe_secrets))
      EXECUTE FUNCTION ${s}.equipment_probe_outbox()`);

    await queryRunner.query(`
      CREATE TABLE ${s}.equipment_health (
        equipment_id uuid PRIMARY KEY REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        state varchar(8) NOT NULL CHECK (state IN ('ok', 'warning', 'error', 'unknown')),
        reasons jsonb NOT NULL DEFAULT '[]',
        outcome varchar(16) NOT NULL,
        probe_type varchar(8) NOT NULL,
        auth_failed boolean NOT NULL DEFAULT false,
        power varchar(8),
        lamps jsonb,
        filter_hours integer,
        input varchar(120),
        model varchar(120),
        serial varchar(120),
        firmware varchar(120),
        replacement_lamp varchar(120),
        replacement_filter varchar(120),
        uptime_seconds double precision,
        uptime_read_at timestamptz,
        rebooted_at timestamptz,
        checked_at timestamptz NOT NULL,
        state_since timestamptz NOT NULL,
        lamp_sampled_on date,
        lamp_rates jsonb,
        filter_rate real
      ) WITH (fillfactor = 70)`);
    await queryRunner.query(
      `CREATE INDEX equipment_health_rebooted_idx ON ${s}.equipment_health (rebooted_at) WHERE rebooted_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX equipment_health_faults_idx ON ${s}.equipment_health (state) WHERE state IN ('warning', 'error')`,
    );

    await queryRunner.query(`
      CREATE TABLE ${s}.health_spans (
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        ended_at timestamptz,
        state varchar(8) NOT NULL,
        reasons jsonb NOT NULL DEFAULT '[]',
        PRIMARY KEY (equipment_id, started_at)
      )`);
    await queryRunner.query(
      `CREATE INDEX health_spans_ended_idx ON ${s}.health_spans (ended_at) WHERE ended_at IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE ${s}.health_days (
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        day date NOT NULL,
        sampled_at timestamptz NOT NULL,
        lamp_hours integer[] NOT NULL DEFAULT '{}',
        filter_hours integer,
        PRIMARY KEY (equipment_id, day)
      )`);
    await queryRunner.query(`CREATE INDEX health_days_day_idx ON ${s}.health_days (day)`);

    await queryRunner.query(`
      CREATE TABLE ${s}.firmware_history (
        id bigserial PRIMARY KEY,
        equipment_id uuid NOT NULL REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        from_version varchar(120),
        to_version varchar(120) NOT NULL,
        changed_at timestamptz NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX firmware_history_equipment_idx ON ${s}.firmware_history (equipment_id, changed_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of ['firmware_history', 'health_days', 'health_spans', 'equipment_health'])
      await queryRunner.query(`DROP TABLE ${s}.${table}`);
    await queryRunner.query(`DROP TRIGGER equipment_probe_changed ON ${s}.equipment`);
    await queryRunner.query(`DROP FUNCTION ${s}.equipment_probe_outbox()`);
    await queryRunner.query(`DELETE FROM ${s}.equipment_events WHERE kind = 'probeChanged'`);
    await queryRunner.query(`ALTER TABLE ${s}.equipment_events DROP CONSTRAINT equipment_events_kind_check`);
    await queryRunner.query(`
      ALTER TABLE ${s}.equipment_events ADD CONSTRAINT equipment_events_kind_check
        CHECK (kind IN ('created', 'addressChanged', 'deleted'))`);
    await queryRunner.query(`DROP INDEX ${s}.equipment_probe_targets_idx`);
    await queryRunner.query(`ALTER TABLE ${s}.equipment DROP COLUMN probe, DROP COLUMN probe_secrets`);
  }
}
