import { type AuditEntry, type AuditPage, type AuditQuery } from '@cm/contracts';
import { execute, queryChanged, queryRow, queryRows, tableOf } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at' | 'count'> & { at: Date };

interface Row {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string | null;
  api_token_id: string | null;
  request_id: string;
  client_address: string;
  action: AuditEntry['action'];
  entity_type: AuditEntry['entityType'];
  entity_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  count: number;
}

const toEntry = (row: Row): AuditEntry => ({
  id: row.id,
  at: row.at.toISOString(),
  actorId: row.actor_id,
  actorName: row.actor_name,
  apiTokenId: row.api_token_id,
  requestId: row.request_id,
  clientAddress: row.client_address,
  action: row.action,
  entityType: row.entity_type,
  entityId: row.entity_id,
  before: row.before,
  after: row.after,
  count: row.count,
});

const valuesOf = (entry: NewAuditEntry) => [
  entry.at,
  entry.actorId,
  entry.actorName,
  entry.apiTokenId,
  entry.requestId,
  entry.clientAddress,
  entry.action,
  entry.entityType,
  entry.entityId,
  entry.before === null ? null : JSON.stringify(entry.before),
  entry.after === null ? null : JSON.stringify(entry.after),
];

/** The audit log in the gateway's schema, read by every replica. */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get table(): string {
    return tableOf(this.dataSource, 'audit_entries');
  }

  async insert(entry: NewAuditEntry): Promise<void> {
    await execute(
      this.dataSource,
      `INSERT INTO ${this.table} (at, actor_id, actor_name, api_token_id, request_id, client_address,
         action, entity_type, entity_id, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      valuesOf(entry),
    );
  }

  /**
   * The entry, unless one with the same address, action and `sampleKey` is there: that one's count
   * goes up by one instead. One statement, so replicas counting at once neither lose a count nor
   * write two rows.
   */
  async insertOrCount(entry: NewAuditEntry, sampleKey: string): Promise<void> {
    await execute(
      this.dataSource,
      `INSERT INTO ${this.table} AS e (at, actor_id, actor_name, api_token_id, request_id, client_address,
         action, entity_type, entity_id, before, after, sample_key)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (client_address, action, sample_key) WHERE sample_key IS NOT NULL
         DO UPDATE SET count = e.count + 1`,
      [...valuesOf(entry), sampleKey],
    );
  }

  /** Whether an entry of this request about this entity is there (by the entity's index). */
  async has(of: {
    entityType: AuditEntry['entityType'];
    entityId: string;
    requestId: string;
  }): Promise<boolean> {
    const found = await queryRow<{ one: number }>(
      this.dataSource,
      `SELECT 1 AS one FROM ${this.table} WHERE entity_type = $1 AND entity_id = $2 AND request_id = $3 LIMIT 1`,
      [of.entityType, of.entityId, of.requestId],
    );
    return found !== null;
  }

  /** Newest first by id (ids grow with time); the cursor is the last id of the previous page. */
  async page(query: AuditQuery): Promise<AuditPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (query.entityType) add('entity_type = ?', query.entityType);
    if (query.entityId) add('entity_id = ?', query.entityId);
    if (query.actor) add('actor_id = ?', query.actor);
    if (query.from) add('at >= ?', new Date(query.from));
    if (query.to) add('at < ?', new Date(query.to));
    if (query.cursor) add('id < ?', query.cursor);
    params.push(query.limit + 1);
    const rows = await queryRows<Row>(
      this.dataSource,
      `SELECT * FROM ${this.table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY id DESC LIMIT $${params.length}`,
      params,
    );
    const items = rows.slice(0, query.limit).map(toEntry);
    return { items, nextCursor: rows.length > query.limit ? items[items.length - 1].id : null };
  }

  /** Deletes entries from before `cutoff`; answers how many went. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    const { count } = await queryChanged(this.dataSource, `DELETE FROM ${this.table} WHERE at < $1`, [
      cutoff,
    ]);
    return count;
  }
}
