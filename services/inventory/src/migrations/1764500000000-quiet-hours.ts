import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A building's weekly teaching hours, outside which its alerts wait for a morning digest or are
 * dropped. A digest is one waiting delivery per channel and building (`deliveries.digest_building_id`),
 * to which each alert of the night adds a line.
 */
export class QuietHours1764500000000 implements MigrationInterface {
  name = 'QuietHours1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`
      CREATE TABLE ${s}.building_quiet_hours (
        building_id uuid PRIMARY KEY REFERENCES ${s}.buildings (id) ON DELETE CASCADE,
        days smallint[] NOT NULL CHECK (cardinality(days) BETWEEN 1 AND 7 AND days <@ ARRAY[1, 2, 3, 4, 5, 6, 7]::smallint[]),
        starts varchar(5) NOT NULL,
        ends varchar(5) NOT NULL CHECK (ends > starts),
        time_zone varchar(64) NOT NULL,
        outside varchar(8) NOT NULL CHECK (outside IN ('digest', 'drop')),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `ALTER TABLE ${s}.deliveries ADD COLUMN digest_building_id uuid REFERENCES ${s}.buildings (id) ON DELETE SET NULL`,
    );
    // One digest waiting per channel and building: the night's alerts add lines to it.
    await queryRunner.query(
      `CREATE UNIQUE INDEX deliveries_digest_idx ON ${s}.deliveries (digest_building_id, channel_id)
        WHERE digest_building_id IS NOT NULL AND state = 'pending' AND attempts = 0`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE ${s}.deliveries DROP COLUMN digest_building_id`);
    await queryRunner.query(`DROP TABLE ${s}.building_quiet_hours`);
  }
}
