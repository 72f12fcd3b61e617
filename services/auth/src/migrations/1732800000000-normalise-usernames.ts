import { schemaOf } from '@cm/platform';
import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** The rule of the day this migration was written, kept here so that it never changes under it. */
const invisible = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const maxLength = 64;

/** At most `max` UTF-16 units (what the contract counts), never splitting a character. */
function cut(text: string, max: number): string {
  let kept = '';
  for (const char of text) {
    if (kept.length + char.length > max) break;
    kept += char;
  }
  return kept;
}

const clean = (username: string) => cut(username.normalize('NFKC').replace(invisible, '').trim(), maxLength);

/**
 * Brings stored usernames to the form new ones take (NFKC, no invisible characters), so that
 * everyone can still sign in with the name they type. A username already in that form never
 * changes. When a cleaned name would be taken (case ignored), by such a username or by an older
 * account cleaned before it, it gets the first free suffix "-2", "-3", …: nobody is merged into
 * someone else's account, and User Management shows the new name to tell its owner.
 */
export class NormaliseUsernames1732800000000 implements MigrationInterface {
  name = 'NormaliseUsernames1732800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const s = schemaOf(queryRunner);
    const rows = (await queryRunner.query(
      `SELECT id, username, lower(username) AS key FROM ${s}.users ORDER BY created_at, id`,
    )) as { id: string; username: string; key: string }[];
    const changed = rows.filter((row) => clean(row.username) !== row.username);
    if (changed.length === 0) return;

    // Case as the index folds it (PostgreSQL's lower(), not JavaScript's), so the new index holds.
    const key = async (username: string) =>
      ((await queryRunner.query('SELECT lower($1::text) AS key', [username])) as { key: string }[])[0].key;
    const taken = new Set(rows.filter((row) => !changed.includes(row)).map((row) => row.key));
    const renames: { id: string; name: string }[] = [];
    for (const { id, username } of changed) {
      const base = clean(username) || 'user';
      let name = base;
      for (let n = 2; taken.has(await key(name)); n++) name = `${cut(base, maxLength - `-${n}`.length)}-${n}`;
      taken.add(await key(name));
      renames.push({ id, name });
    }
    // Renamed rows may swap names among themselves: the index would refuse a step in between.
    await queryRunner.query(`DROP INDEX ${s}.users_username_key`);
    for (const { id, name } of renames) {
      await queryRunner.query(`UPDATE ${s}.users SET username = $1, updated_at = now() WHERE id = $2`, [
        name,
        id,
      ]);
    }
    await queryRunner.query(`CREATE UNIQUE INDEX users_username_key ON ${s}.users (lower(username))`);
  }

  async down(): Promise<void> {
    // The former spellings are not kept: they were the problem.
  }
}
