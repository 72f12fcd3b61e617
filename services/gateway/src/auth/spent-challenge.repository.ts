import { execute, queryRow, tableOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The two-factor challenges that have been used, in PostgreSQL so that every gateway replica
 * refuses them. Kept until they expire, when the expiry in the signed challenge refuses them anyway.
 */
@Injectable()
export class SpentChallengeRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return tableOf(this.dataSource, 'spent_totp_challenges');
  }

  async isSpent(id: string): Promise<boolean> {
    const spent = await queryRow<{ id: string }>(
      this.dataSource,
      `SELECT id FROM ${this.table} WHERE id = $1`,
      [id],
    );
    return spent !== null;
  }

  /** Marks the challenge used; false when it already was (another sign-in got there first). */
  async spend(id: string, expiresAt: Date, now: Date): Promise<boolean> {
    // Sign-ins with a code are rare enough to forget the expired ones here.
    await execute(this.dataSource, `DELETE FROM ${this.table} WHERE expires_at < $1`, [now]);
    const taken = await queryRow<{ id: string }>(
      this.dataSource,
      `INSERT INTO ${this.table} (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [id, expiresAt],
    );
    return taken !== null;
  }
}
