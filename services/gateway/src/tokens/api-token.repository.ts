import { type ApiToken, type ApiTokenScope, type UserRole } from '@cm/contracts';
import { execute, queryChanged, queryRow, queryRows, tableOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface Row {
  id: string;
  user_id: string;
  name: string;
  role: UserRole;
  scope: ApiTokenScope;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
}

const columns = 'id, user_id, name, role, scope, created_at, expires_at, last_used_at';

const toToken = (row: Row): ApiToken => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  role: row.role,
  scope: row.scope,
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

export interface NewApiToken {
  userId: string;
  name: string;
  role: UserRole;
  scope: ApiTokenScope;
  hash: string;
  createdAt: Date;
  expiresAt: Date;
}

/** API tokens in PostgreSQL, so that every gateway replica knows the same ones at once. */
@Injectable()
export class ApiTokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return tableOf(this.dataSource, 'api_tokens');
  }

  async create(token: NewApiToken): Promise<ApiToken> {
    const [created] = await queryRows<Row>(
      this.dataSource,
      `INSERT INTO ${this.table} (user_id, name, role, scope, token_hash, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${columns}`,
      [token.userId, token.name, token.role, token.scope, token.hash, token.createdAt, token.expiresAt],
    );
    return toToken(created);
  }

  async listOf(userId: string): Promise<ApiToken[]> {
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.table} WHERE user_id = $1 ORDER BY created_at DESC, id`,
      [userId],
    );
    return rows.map(toToken);
  }

  async find(id: string): Promise<ApiToken | null> {
    const row = await queryRow<Row>(this.dataSource, `SELECT ${columns} FROM ${this.table} WHERE id = $1`, [
      id,
    ]);
    return row ? toToken(row) : null;
  }

  /** The token a bearer hash names, expired or not (the caller decides). One index lookup. */
  async findByHash(hash: string): Promise<ApiToken | null> {
    const row = await queryRow<Row>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.table} WHERE token_hash = $1`,
      [hash],
    );
    return row ? toToken(row) : null;
  }

  /**
   * Records a use, unless one was recorded since `unlessSince`: at most one write a minute per
   * token, however busy it is, and none from replicas that lose the race.
   */
  async touch(id: string, at: Date, unlessSince: Date): Promise<void> {
    await execute(
      this.dataSource,
      `UPDATE ${this.table} SET last_used_at = $2
         WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $3)`,
      [id, at, unlessSince],
    );
  }

  async delete(id: string): Promise<boolean> {
    const { count } = await queryChanged(this.dataSource, `DELETE FROM ${this.table} WHERE id = $1`, [id]);
    return count > 0;
  }

  async deleteAllOf(userId: string): Promise<void> {
    await execute(this.dataSource, `DELETE FROM ${this.table} WHERE user_id = $1`, [userId]);
  }
}
