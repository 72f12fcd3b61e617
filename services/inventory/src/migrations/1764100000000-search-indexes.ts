import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The text search matches of each record, lower-cased, fields joined by a line break so that a
 * fragment spanning two fields rarely matches. The search query repeats these expressions
 * exactly: PostgreSQL uses an expression index only for the same expression.
 */
export const searchText = {
  buildings: `lower(name || E'\\n' || coalesce(description, ''))`,
  rooms: `lower(name)`,
  equipment: `lower(name || E'\\n' || coalesce(model, '') || E'\\n' || coalesce(serial_number, '') || E'\\n' || coalesce(ip_address, '') || E'\\n' || coalesce(notes, ''))`,
} as const;

const installedSchema = async (queryRunner: QueryRunner): Promise<string | undefined> => {
  const [row] = (await queryRunner.query(
    `SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'pg_trgm'`,
  )) as { schema: string }[];
  return row?.schema;
};

/**
 * Trigram (pg_trgm) GIN indexes, which serve `LIKE '%fragment%'` on a large table without reading
 * every row. The extension is database-wide: it is created once in `public` (it would be dropped
 * with a service schema otherwise), and an existing one is used wherever it was installed.
 */
export class SearchIndexes1764100000000 implements MigrationInterface {
  name = 'SearchIndexes1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    let trgm = await installedSchema(queryRunner);
    if (!trgm) {
      try {
        await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public');
      } catch (error) {
        // Another service replica may have created it at the same moment: that one is as good.
        trgm = await installedSchema(queryRunner);
        if (!trgm) {
          throw new Error(
            `Search needs the PostgreSQL extension pg_trgm, which this database user cannot create ` +
              `(${(error as Error).message}). Ask the database administrator to run ` +
              `"CREATE EXTENSION pg_trgm WITH SCHEMA public" in this database, then start the service again.`,
          );
        }
      }
      trgm ??= await installedSchema(queryRunner);
    }
    const ops = `"${trgm}".gin_trgm_ops`;
    for (const [table, expression] of Object.entries(searchText)) {
      await queryRunner.query(
        `CREATE INDEX ${table}_search_idx ON ${s}.${table} USING gin ((${expression}) ${ops})`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    for (const table of Object.keys(searchText))
      await queryRunner.query(`DROP INDEX ${s}.${table}_search_idx`);
  }
}
