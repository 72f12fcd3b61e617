import { queryChanged } from '@cm/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { setClause, type Tables, tablesOf } from './sql';

/**
 * A transaction under way, as the layers above the repositories hand it on: only a repository
 * runs statements in it. What lets one context's work join another's transaction (a status batch
 * and the alert decisions it causes) without TypeORM leaving the repositories.
 */
export type Transaction = EntityManager;

/** What every inventory repository does alike: qualified table names, update and delete by id. */
export abstract class TableRepository {
  protected readonly t: Tables;

  constructor(protected readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  /** Runs `work` in a transaction of its own. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /**
   * Sets the fields `changes` carries (mapped to columns by `updatable`), in `manager`'s
   * transaction when given; null when no row has the id.
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
    },
  ): Promise<R | null> {
    const { changes, updatable, extraSet = '', manager = this.dataSource.manager } = update;
    const set = setClause(changes, updatable, 2);
    const { rows } = await queryChanged<R>(
      manager,
      `UPDATE ${table} SET ${set.sql}, updated_at = now()${extraSet} WHERE id = $1 RETURNING ${returning}`,
      [id, ...set.values],
    );
    return rows[0] ?? null;
  }

  /**
   * Deletes the row and answers `returning` of it (its parents), or null when no row has the id;
   * children go by their foreign keys' cascades, in the same statement; in `manager`'s transaction
   * when given.
   */
  protected async deleteReturning<R>(
    table: string,
    returning: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<R | null> {
    const { rows } = await queryChanged<R>(
      manager,
      `DELETE FROM ${table} WHERE id = $1 RETURNING ${returning}`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Whether a row was deleted; children go by their foreign keys' cascades, in the same statement. */
  protected async deleteById(
    table: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<boolean> {
    const { count } = await queryChanged(manager, `DELETE FROM ${table} WHERE id = $1`, [id]);
    return count > 0;
  }
}
