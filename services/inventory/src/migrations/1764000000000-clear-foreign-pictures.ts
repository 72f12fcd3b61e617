import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The object path media produced when this migration was written (`objectPathOf` of a key
 * matching `objectKeyPattern`), kept here as it was: a migration must mean the same thing on
 * every install, whatever the contracts say later.
 */
const objectPath = '^/objects/uploads/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

const pictureColumns = [
  ['buildings', 'image_url'],
  ['rooms', 'image_url'],
  ['rooms', 'wiring_diagram_url'],
  ['rooms', 'seating_layout_url'],
  ['equipment', 'image_url'],
] as const;

/**
 * Picture fields were free text, so a stored address (`/api/logout`, another site) was fetched by
 * every browser showing the card, with its cookie. They now hold only our object paths; whatever
 * else is stored is cleared, and the card shows its drawn placeholder instead.
 */
export class ClearForeignPictures1764000000000 implements MigrationInterface {
  name = 'ClearForeignPictures1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const [table, column] of pictureColumns) {
      await queryRunner.query(`UPDATE ${s}.${table} SET ${column} = NULL WHERE ${column} !~ $1`, [
        objectPath,
      ]);
    }
  }

  async down(): Promise<void> {
    // What was cleared is gone; the old schema accepts the paths that are left.
  }
}
