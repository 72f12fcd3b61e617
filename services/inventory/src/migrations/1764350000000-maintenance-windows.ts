import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Maintenance windows: a building, a room or one equipment (exactly one, each by a foreign key
 * that cascades, so a deleted place takes its windows with it), a start, an end and a reason. The
 * checks repeat the contract's rules (the reason's 500 characters, at most 90 days) so that no
 * write path can store a window the uptime reckoning or the screens do not expect.
 */
export class MaintenanceWindows1764350000000 implements MigrationInterface {
  name = 'MaintenanceWindows1764350000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.maintenance_windows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        building_id uuid REFERENCES ${s}.buildings (id) ON DELETE CASCADE,
        room_id uuid REFERENCES ${s}.rooms (id) ON DELETE CASCADE,
        equipment_id uuid REFERENCES ${s}.equipment (id) ON DELETE CASCADE,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL,
        reason varchar(500) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT maintenance_windows_one_target CHECK (num_nonnulls(building_id, room_id, equipment_id) = 1),
        CONSTRAINT maintenance_windows_times CHECK (ends_at > starts_at AND ends_at - starts_at <= interval '90 days')
      )`);
    // Each target's windows by time (the uptime reckoning and the covering query probe all three
    // for one equipment), and the cascades from each target.
    for (const target of ['building', 'room', 'equipment']) {
      await queryRunner.query(
        `CREATE INDEX maintenance_windows_${target}_idx ON ${s}.maintenance_windows (${target}_id, starts_at)
          WHERE ${target}_id IS NOT NULL`,
      );
    }
    // The whole campus's list, by start.
    await queryRunner.query(
      `CREATE INDEX maintenance_windows_starts_idx ON ${s}.maintenance_windows (starts_at, id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`DROP TABLE ${s}.maintenance_windows`);
  }
}
