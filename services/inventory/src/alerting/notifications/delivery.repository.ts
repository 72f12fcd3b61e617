import {
  type ChannelType,
  type Delivery,
  type DeliveryContent,
  type DeliveryPage,
  type DeliveryQuery,
} from '@cm/contracts';
import { queryChanged, queryRows } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { isoOf, type Tables, tablesOf } from '../../shared/database/sql';
import { type ChannelSettings } from './channel.repository';
import { DELIVERY_CLOCK, type DeliveryClock } from './delivery-clock';

const columns = `d.id, d.channel_id AS "channelId", c.name AS "channelName", c.type AS "channelType", d.kind,
  d.payload->>'text' AS text, d.state, d.attempts, ${isoOf('d.next_attempt_at')} AS "nextAttemptAt",
  d.last_error AS "lastError", ${isoOf('d.created_at')} AS "createdAt", ${isoOf('d.sent_at')} AS "sentAt",
  (SELECT json_build_object('channelId', i.channel_id, 'channelName', c.name, 'number', i.number, 'url', i.url,
                            'state', i.state)
     FROM __incidents__ i
    WHERE i.channel_id = d.channel_id AND i.number IS NOT NULL
      AND i.alert_id::text = coalesce(d.alert_id::text, d.payload->'data'->>'alertId')) AS incident`;

/** A claimed delivery with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  kind: string;
  content: DeliveryContent;
  attempts: number;
  createdAt: string;
  channel: {
    id: string;
    name: string;
    type: ChannelType;
    url: string | null;
    recipients: string[] | null;
    enabled: boolean;
    sealedSecret: string | null;
    settings: ChannelSettings;
  };
}

export type DeliveryOutcome =
  | { state: 'sent' }
  | { state: 'pending'; error: string; retryInMs: number }
  | { state: 'failed'; error: string };

const claimedColumns = `d.id, d.kind, d.payload AS content, d.attempts, ${isoOf('d.created_at')} AS "createdAt",
  json_build_object('id', c.id, 'name', c.name, 'type', c.type, 'url', c.url, 'recipients', c.recipients,
                    'enabled', c.enabled, 'sealedSecret', c.secret, 'settings', c.settings) AS channel`;

/**
 * The `deliveries` outbox. A row in `sending` is leased until `next_attempt_at`; whoever claimed
 * it records the outcome only while the lease is still theirs (same attempt number), so a replica
 * that comes back after its lease ran out cannot overwrite what another did since. Due times are
 * on the injected clock, never the database's, so that a test can hold them.
 */
@Injectable()
export class DeliveryRepository {
  private readonly t: Tables;
  /** The log's columns, the incident read from this schema's table. */
  private readonly columns: string;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DELIVERY_CLOCK) private readonly clock: DeliveryClock,
  ) {
    this.t = tablesOf(dataSource);
    this.columns = columns.replace('__incidents__', this.t.incidents);
  }

  /**
   * Queues messages, in `manager`'s transaction when given: the alert engine inserts them with the
   * change that decided them, so a rolled-back decision sends nothing and a committed one is sent
   * even if the process dies right after. An alert's message names its alert (so it can be
   * rewritten while it waits) and may wait `delayMs` before it is due. Answers the new ids.
   */
  async enqueue(
    items: { channelId: string; content: DeliveryContent; alertId?: string | null; delayMs?: number }[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<string[]> {
    if (items.length === 0) return [];
    const rows = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO ${this.t.deliveries} (channel_id, kind, payload, alert_id, next_attempt_at)
       SELECT channel_id, payload->>'kind', payload, alert_id, $5::timestamptz + delay_ms * interval '1 millisecond'
         FROM unnest($1::uuid[], $2::jsonb[], $3::uuid[], $4::int[]) AS i(channel_id, payload, alert_id, delay_ms)
       RETURNING id`,
      [
        items.map((i) => i.channelId),
        items.map((i) => JSON.stringify(i.content)),
        items.map((i) => i.alertId ?? null),
        items.map((i) => i.delayMs ?? 0),
        this.clock.now(),
      ],
    );
    return rows.map((row) => row.id);
  }

  /** A delivery inserted already claimed by the caller, for the test button to send at once. */
  async insertClaimed(
    channelId: string,
    content: DeliveryContent,
    leaseMs: number,
  ): Promise<ClaimedDelivery> {
    const [row] = await queryRows<ClaimedDelivery>(
      this.dataSource,
      `WITH d AS (
         INSERT INTO ${this.t.deliveries} (channel_id, kind, payload, state, attempts, next_attempt_at)
         VALUES ($1, $2, $3, 'sending', 1, $5::timestamptz + $4::int * interval '1 millisecond')
         RETURNING *
       )
       SELECT ${claimedColumns} FROM d JOIN ${this.t.channels} c ON c.id = d.channel_id`,
      [channelId, content.kind, JSON.stringify(content), leaseMs, this.clock.now()],
    );
    return row;
  }

  /**
   * Claims up to `limit` deliveries that are due: pending ones whose time has come, and sending
   * ones whose lease ran out (their replica died mid-send). Rows another replica is claiming are
   * skipped, not waited for, so replicas share the work and none sends a row another holds.
   */
  async claimDue(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const { rows } = await queryChanged<ClaimedDelivery>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM ${this.t.deliveries}
          WHERE state IN ('pending', 'sending') AND next_attempt_at <= $3::timestamptz
          ORDER BY next_attempt_at
          LIMIT $1
          FOR UPDATE SKIP LOCKED
       )
       UPDATE ${this.t.deliveries} AS d
          SET state = 'sending', attempts = d.attempts + 1, next_attempt_at = $3::timestamptz + $2::int * interval '1 millisecond'
         FROM due, ${this.t.channels} c
        WHERE d.id = due.id AND c.id = d.channel_id
       RETURNING ${claimedColumns}`,
      [limit, leaseMs, this.clock.now()],
    );
    return rows;
  }

  /** Whether the outcome was recorded: false when the lease was no longer this attempt's. */
  async record(id: string, attempt: number, outcome: DeliveryOutcome): Promise<boolean> {
    const set =
      outcome.state === 'sent'
        ? `state = 'sent', sent_at = now(), next_attempt_at = NULL, last_error = NULL`
        : outcome.state === 'pending'
          ? `state = 'pending', next_attempt_at = $5::timestamptz + $4::int * interval '1 millisecond', last_error = $3`
          : `state = 'failed', next_attempt_at = NULL, last_error = $3`;
    const params: unknown[] = [id, attempt];
    if (outcome.state !== 'sent') params.push(outcome.error.slice(0, 1000));
    if (outcome.state === 'pending') params.push(outcome.retryInMs, this.clock.now());
    const { count } = await queryChanged(
      this.dataSource,
      `UPDATE ${this.t.deliveries} SET ${set} WHERE id = $1 AND state = 'sending' AND attempts = $2`,
      params,
    );
    return count > 0;
  }

  async get(id: string): Promise<Delivery | null> {
    const rows = await queryRows<Delivery>(
      this.dataSource,
      `SELECT ${this.columns} FROM ${this.t.deliveries} d JOIN ${this.t.channels} c ON c.id = d.channel_id WHERE d.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The log, newest first; the cursor is the last row's exact creation time and id. */
  async page(query: DeliveryQuery, after: { at: string; id: string } | null): Promise<DeliveryPage> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (query.channelId) where.push(`d.channel_id = ${param(query.channelId)}`);
    if (query.state) where.push(`d.state = ${param(query.state)}`);
    if (query.from) where.push(`d.created_at >= ${param(query.from)}`);
    if (query.to) where.push(`d.created_at < ${param(query.to)}`);
    if (after)
      where.push(`(d.created_at, d.id) < (${param(after.at)}::timestamptz, ${param(after.id)}::uuid)`);
    const rows = await queryRows<Delivery & { cursorAt: string }>(
      this.dataSource,
      `SELECT ${this.columns},
              to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorAt"
         FROM ${this.t.deliveries} d JOIN ${this.t.channels} c ON c.id = d.channel_id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${param(query.limit + 1)}`,
      params,
    );
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items: items.map(({ cursorAt: _cursorAt, ...delivery }) => delivery),
      nextCursor: rows.length > query.limit && last ? encodeCursor(last.cursorAt, last.id) : null,
    };
  }
}

export function encodeCursor(at: string, id: string): string {
  return Buffer.from(`${at}|${id}`).toString('base64url');
}

/** Null for a cursor that is not one this service made. */
export function decodeCursor(cursor: string): { at: string; id: string } | null {
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (rest.length > 0 || !uuid.test(id ?? '') || Number.isNaN(Date.parse(at))) return null;
  return { at, id };
}
