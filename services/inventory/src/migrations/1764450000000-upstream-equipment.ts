import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * An equipment's upstream device (the switch it hangs off): while that one fails, the alert
 * engine lists it behind the upstream instead of alerting for it. Deleting the upstream leaves
 * its dependents without one; the index serves "what is behind this device".
 */
export class UpstreamEquipment1764450000000 implements MigrationInterface {
  name = 'UpstreamEquipment1764450000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(
      `ALTER TABLE ${s}.equipment
         ADD COLUMN upstream_equipment_id uuid REFERENCES ${s}.equipment (id) ON DELETE SET NULL,
         ADD CONSTRAINT equipment_upstream_not_self CHECK (upstream_equipment_id <> id)`,
    );
    await queryRunner.query(
      `CREATE INDEX equipment_upstream_idx ON ${s}.equipment (upstream_equipment_id)
        WHERE upstream_equipment_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    await queryRunner.query(`ALTER TABLE ${s}.equipment DROP COLUMN upstream_equipment_id`);
  }
}
