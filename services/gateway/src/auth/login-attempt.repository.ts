import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface AttemptCount {
  key: string;
  failures: number;
  /** Seconds until the window of this key ends. */
  retryAfterSeconds: number;
}

/**
 * Counts sign-in attempts per key in fixed windows. An attempt is counted before the password
 * is checked (so parallel guesses cannot slip past the limit) and taken back when it succeeds.
 */
@Injectable()
export class LoginAttemptRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return `"${(this.dataSource.options as { schema?: string }).schema}".login_failures`;
  }

  /** Counts one more attempt for each key at `at`, the throttle's clock (not the database's). */
  async count(keys: string[], windowSeconds: number, at: Date): Promise<AttemptCount[]> {
    // Windows that ended are of no use; sign-ins are rare enough to sweep them here.
    await this.dataSource.query(
      `DELETE FROM ${this.table} WHERE window_start <= $2::timestamptz - make_interval(secs => $1)`,
      [windowSeconds, at],
    );
    const rows = (await this.dataSource.query(
      `INSERT INTO ${this.table} AS f (key, failures, window_start)
         SELECT unnest($1::varchar[]), 1, $3::timestamptz
       ON CONFLICT (key) DO UPDATE SET
         failures = CASE WHEN f.window_start <= $3::timestamptz - make_interval(secs => $2) THEN 1 ELSE f.failures + 1 END,
         window_start = CASE WHEN f.window_start <= $3::timestamptz - make_interval(secs => $2) THEN $3::timestamptz ELSE f.window_start END
       RETURNING key, failures,
         ceil(extract(epoch FROM f.window_start + make_interval(secs => $2) - $3::timestamptz))::int AS "retryAfterSeconds"`,
      [keys, windowSeconds, at],
    )) as AttemptCount[];
    return rows;
  }

  /** Takes back an attempt that was not a failed guess (a success, or a service that did not answer). */
  async refund(keys: string[]): Promise<void> {
    await this.dataSource.query(
      `UPDATE ${this.table} SET failures = greatest(failures - 1, 0) WHERE key = ANY($1::varchar[])`,
      [keys],
    );
  }

  /** After a successful sign-in the username starts afresh. */
  async reset(key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM ${this.table} WHERE key = $1`, [key]);
  }
}
