import { pooledRunner, queryChanged, queryRows, type SqlRunner } from '@cm/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { setClause, type Tables, tablesOf } from './sql';
import { staleVersion, type VersionedKind } from './stale';

/**
 * A transaction under way, as the layers above the repositories hand it on: only a repository
 * runs statements in it. What lets one context's work join another's transaction (a status batch
 * and the alert decisions it causes) without TypeORM leaving the repositories.
 */
export type Transaction = EntityManager;

/** What every inventory repository does alike: qualified table names, update and delete by id. */
export abstract class TableRepository {
  protected readonly t: Tables;
  /**
   * Where a read outside any transaction runs: the data source's pool, without TypeORM's query
   * runner in between (`pooledRunner`). Writes and transactions keep the data source.
   */
  protected readonly reads: SqlRunner;

  constructor(protected readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
    this.reads = pooledRunner(dataSource);
  }

  /** Runs `work` in a transaction of its own. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Runs the reads of `work` on one snapshot of the database: what one answer puts together from
   * several statements is as of one moment, not half before and half after another's commit.
   */
  snapshot<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction('REPEATABLE READ', work);
  }

  /**
   * Sets the fields `changes` carries (mapped to columns by `updatable`) and counts the edit in
   * `version`, in `manager`'s transaction when given; null when no row has the id. With
   * `ifVersion`, a row at another version is left as it is and a stale-version error raised.
   */
  protected async updateById<R, C extends object>(
    table: string,
    returning: string,
    id: string,
    update: {
      changes: C;
      updatable: { [K in keyof C]?: string };
      extraSet?: string;
      manager?: EntityManager;
      ifVersion?: { version: number | undefined; kind: VersionedKind };
    },
  ): Promise<R | null> {
    const { changes, updatable, extraSet = '', manager = this.dataSource.manager, ifVersion } = update;
    const set = setClause(changes, updatable, 3);
    const expected = ifVersion?.version ?? null;
    const { rows } = await queryChanged<R>(
      manager,
      `UPDATE ${table} SET ${set.sql}, updated_at = now(), version = version + 1${extraSet}
        WHERE id = $1 AND ($2::int IS NULL OR version = $2::int) RETURNING ${returning}`,
      [id, expected, ...set.values],
    );
    if (rows[0]) return rows[0];
    if (expected !== null && (await this.exists(table, id, manager)))
      throw staleVersion(ifVersion!.kind, id, expected);
    return null;
  }

  private async exists(table: string, id: string, manager: EntityManager): Promise<boolean> {
    const bare = table.split(' ')[0];
    const rows = await queryRows(manager, `SELECT 1 FROM ${bare} WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /**
   * Deletes the row and answers `returning` of it (its parents), or null when no row has the id;
   * children go by their foreign keys' cascades, in the same statement; in `manager`'s transaction
   * when given. With `ifVersion`, a row at another version is left as it is and a stale-version
   * error raised.
   */
  protected async deleteReturning<R>(
    table: string,
    returning: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
    ifVersion?: { version: number | undefined; kind: VersionedKind },
  ): Promise<R | null> {
    const expected = ifVersion?.version ?? null;
    // Only the versioned tables have the column: the others' deletes never name it.
    const { rows } = await queryChanged<R>(
      manager,
      expected === null
        ? `DELETE FROM ${table} WHERE id = $1 RETURNING ${returning}`
        : `DELETE FROM ${table} WHERE id = $1 AND version = $2::int RETURNING ${returning}`,
      expected === null ? [id] : [id, expected],
    );
    if (rows[0]) return rows[0];
    if (expected !== null && (await this.exists(table, id, manager)))
      throw staleVersion(ifVersion!.kind, id, expected);
    return null;
  }

  /**
   * Whether a row was deleted; children go by their foreign keys' cascades, in the same statement.
   * With `ifVersion`, as `deleteReturning`.
   */
  protected async deleteById(
    table: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
    ifVersion?: { version: number | undefined; kind: VersionedKind },
  ): Promise<boolean> {
    return (await this.deleteReturning(table, '1 AS deleted', id, manager, ifVersion)) !== null;
  }
}
