import { execute, queryRows, tableOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type Counter } from './throttle-policy';

/** A throttling key, and the user it holds back (none for a client's own counter). */
export interface ThrottleKey {
  key: string;
  username: string | null;
}

export interface UserCounter extends Counter {
  key: string;
  username: string;
}

interface Row {
  key: string;
  username: string | null;
  failures: number;
  pending: number;
  lastFailureAt: Date | null;
  touchedAt: Date;
}

const columns = `key, username, failures, pending, last_failure_at AS "lastFailureAt", touched_at AS "touchedAt"`;

const counterOf = (row: Row): Counter => ({
  failures: row.failures,
  pending: row.pending,
  lastFailureAt: row.lastFailureAt?.getTime() ?? null,
  touchedAt: row.touchedAt.getTime(),
});

/**
 * Sign-in counters in PostgreSQL, so that every gateway replica sees the same ones. Times come
 * from the throttle's clock, never the database's.
 */
@Injectable()
export class LoginAttemptRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return tableOf(this.dataSource, 'login_throttle');
  }

  /**
   * Locks the keys' counters (created empty when missing) for the whole of `change`, which
   * decides from them and may give new values: concurrent attempts on one key are decided one
   * after the other, so a burst cannot slip past a limit.
   */
  async change<T>(
    keys: ThrottleKey[],
    at: Date,
    change: (counters: Map<string, Counter>) => { result: T; next?: Map<string, Counter> },
  ): Promise<T> {
    // One order for every transaction, so that two attempts sharing keys wait instead of deadlocking.
    const sorted = [...keys].sort((a, b) => (a.key < b.key ? -1 : 1));
    return this.dataSource.transaction(async (manager) => {
      await execute(
        manager,
        `INSERT INTO ${this.table} (key, username, touched_at)
           SELECT k, u, $3::timestamptz FROM unnest($1::varchar[], $2::varchar[]) AS t(k, u) ORDER BY k
         ON CONFLICT (key) DO NOTHING`,
        [sorted.map((k) => k.key), sorted.map((k) => k.username), at],
      );
      const rows = await queryRows<Row>(
        manager,
        `SELECT ${columns} FROM ${this.table} WHERE key = ANY($1::varchar[]) ORDER BY key FOR UPDATE`,
        [sorted.map((k) => k.key)],
      );
      const { result, next } = change(new Map(rows.map((r) => [r.key, counterOf(r)])));
      for (const [key, counter] of next ?? []) await this.save(manager, key, counter);
      return result;
    });
  }

  private async save(manager: EntityManager, key: string, counter: Counter): Promise<void> {
    await execute(
      manager,
      `UPDATE ${this.table} SET failures = $2, pending = $3, last_failure_at = $4, touched_at = $5 WHERE key = $1`,
      [
        key,
        counter.failures,
        counter.pending,
        counter.lastFailureAt === null ? null : new Date(counter.lastFailureAt),
        new Date(counter.touchedAt),
      ],
    );
  }

  /** An admitted attempt was a wrong guess. */
  async failed(keys: string[], at: Date): Promise<void> {
    await execute(
      this.dataSource,
      `WITH ${this.locked('key = ANY($1::varchar[])')}
       UPDATE ${this.table} t
         SET pending = greatest(pending - 1, 0), failures = failures + 1, last_failure_at = $2, touched_at = $2
       FROM locked WHERE t.key = locked.key`,
      [keys, at],
    );
  }

  /** An admitted attempt ended without telling anything about the password (an outage, a busy service). */
  async release(keys: string[]): Promise<void> {
    await execute(
      this.dataSource,
      `WITH ${this.locked('key = ANY($1::varchar[])')}
       UPDATE ${this.table} t SET pending = greatest(pending - 1, 0) FROM locked WHERE t.key = locked.key`,
      [keys],
    );
  }

  async forget(keys: string[]): Promise<void> {
    await execute(
      this.dataSource,
      `WITH ${this.locked('key = ANY($1::varchar[])')}
       DELETE FROM ${this.table} t USING locked WHERE t.key = locked.key`,
      [keys],
    );
  }

  /** Every counter that holds back the user, from any client or device. */
  async forgetUser(username: string): Promise<void> {
    await execute(
      this.dataSource,
      `WITH ${this.locked('username = $1')} DELETE FROM ${this.table} t USING locked WHERE t.key = locked.key`,
      [username],
    );
  }

  async countersWithFailures(): Promise<UserCounter[]> {
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.table} WHERE username IS NOT NULL AND failures > 0`,
    );
    return rows.map((r) => ({ ...counterOf(r), key: r.key, username: r.username! }));
  }

  /** Counters untouched since `before` have been forgotten; sign-ins are rare enough to sweep them here. */
  async sweep(before: Date): Promise<void> {
    // A counter in use just now is left for the next sweep rather than waited for.
    await execute(
      this.dataSource,
      `WITH ${this.locked('touched_at < $1', 'SKIP LOCKED')}
       DELETE FROM ${this.table} t USING locked WHERE t.key = locked.key`,
      [before],
    );
  }

  /**
   * The rows `where` selects, locked in key order: every statement that changes several counters
   * takes their locks in the order `change` does, so that none of them waits for another in a circle.
   */
  private locked(where: string, wait = ''): string {
    return `locked AS (SELECT key FROM ${this.table} WHERE ${where} ORDER BY key FOR UPDATE ${wait})`;
  }
}
