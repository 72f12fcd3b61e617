import { execute, queryRow, tableOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** One create, named by who sent it, where, and with which key. */
export interface IdempotencyClaim {
  userId: string;
  route: string;
  key: string;
  /** A hash of the parsed body: the same key with another body is a mistake, not a retry. */
  fingerprint: string;
}

/** What an earlier request with the key left: its body's hash, and its answer once it has one. */
export interface IdempotencyRecord {
  fingerprint: string;
  /** Absent while the first request still runs. */
  response: { body: unknown } | null;
}

/**
 * Idempotency keys in PostgreSQL, so that every gateway replica sees the same ones. Times come
 * from the caller's clock, never the database's.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return tableOf(this.dataSource, 'idempotency_keys');
  }

  /**
   * Takes the key for this request: true when it is new, or when what held it is forgotten (older
   * than `expiredBefore`) or abandoned (still unanswered since before `abandonedBefore`, its
   * gateway gone). One statement, so two requests racing for a key cannot both take it.
   */
  async claim(
    claim: IdempotencyClaim,
    at: Date,
    expiredBefore: Date,
    abandonedBefore: Date,
  ): Promise<boolean> {
    const taken = await queryRow<{ one: number }>(
      this.dataSource,
      `INSERT INTO ${this.table} AS t (user_id, route, key, fingerprint, created_at)
         VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, route, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, response = NULL, created_at = EXCLUDED.created_at
         WHERE t.created_at < $6 OR (t.response IS NULL AND t.created_at < $7)
       RETURNING 1 AS one`,
      [claim.userId, claim.route, claim.key, claim.fingerprint, at, expiredBefore, abandonedBefore],
    );
    return taken !== null;
  }

  async find(claim: IdempotencyClaim): Promise<IdempotencyRecord | null> {
    return queryRow<IdempotencyRecord>(
      this.dataSource,
      `SELECT fingerprint, response FROM ${this.table} WHERE user_id = $1 AND route = $2 AND key = $3`,
      [claim.userId, claim.route, claim.key],
    );
  }

  /** The first request's answer, for every retry within the window. */
  async answer(claim: IdempotencyClaim, body: unknown): Promise<void> {
    await execute(
      this.dataSource,
      `UPDATE ${this.table} SET response = $5 WHERE user_id = $1 AND route = $2 AND key = $3 AND fingerprint = $4`,
      [claim.userId, claim.route, claim.key, claim.fingerprint, JSON.stringify({ body })],
    );
  }

  /** The request failed: nothing was created, so a retry with the key may try again. */
  async release(claim: IdempotencyClaim): Promise<void> {
    await execute(
      this.dataSource,
      `DELETE FROM ${this.table} WHERE user_id = $1 AND route = $2 AND key = $3 AND fingerprint = $4 AND response IS NULL`,
      [claim.userId, claim.route, claim.key, claim.fingerprint],
    );
  }

  async sweep(before: Date): Promise<void> {
    await execute(this.dataSource, `DELETE FROM ${this.table} WHERE created_at < $1`, [before]);
  }
}
