import { type EquipmentChangedEvent } from '@cm/contracts';
import { execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';

@Injectable()
export class EquipmentEventRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  /**
   * How many events wait and how long the oldest has, on the database's clock (the one that
   * stamped them). The outbox holds seconds' worth of changes while NATS takes them, so counting
   * it at each scrape is cheap; it is large only when publishing has stopped.
   */
  async backlog(): Promise<{ events: number; oldestAgeSeconds: number }> {
    const [row] = await queryRows<{ events: number; age: number | null }>(
      this.dataSource,
      `SELECT count(*)::int AS events,
              extract(epoch FROM clock_timestamp() - min(changed_at))::float8 AS age
         FROM ${this.t.events}`,
    );
    return { events: row.events, oldestAgeSeconds: Math.max(0, row.age ?? 0) };
  }

  /**
   * Hands the oldest outbox events, in order, to `publish`, and deletes those it published, in
   * one transaction. A transaction-scoped advisory lock lets one replica at a time do it, so
   * events leave in seq order among those committed. Seqs are taken at insert, not at commit, so
   * a change that commits late can leave after later-numbered ones; one equipment's changes still
   * leave in order, as its row lock makes the next change take its seq only after the previous
   * one committed. Null when another replica holds the lock.
   */
  drain(
    limit: number,
    publish: (events: EquipmentChangedEvent[]) => Promise<number>,
  ): Promise<{ published: number; remaining: boolean } | null> {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await queryRows<{ locked: boolean }>(
        manager,
        'SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked',
        [`${this.t.events}.relay`],
      );
      if (!locked) return null;
      const rows = await queryRows<EquipmentChangedEvent & { seq: string }>(
        manager,
        `SELECT seq, event_id::text AS "eventId", kind, equipment_id AS "equipmentId", ip_address AS "ipAddress",
                previous_ip_address AS "previousIpAddress", changed_at AS "changedAt"
           FROM ${this.t.events}
          ORDER BY seq
          LIMIT $1`,
        [limit],
      );
      if (rows.length === 0) return { published: 0, remaining: false };
      const events = rows.map(({ seq: _seq, changedAt, ...event }) => ({
        ...event,
        changedAt: new Date(changedAt).toISOString(),
      }));
      const published = await publish(events);
      // Exactly the rows published, never a range up to the last one: a change that took a lower
      // seq but committed after the read above is visible to this delete (each statement sees
      // what has committed by then), and would go unpublished. Left alone, it is read next round.
      if (published > 0) {
        await execute(manager, `DELETE FROM ${this.t.events} WHERE seq = ANY($1::bigint[])`, [
          rows.slice(0, published).map((row) => row.seq),
        ]);
      }
      return { published, remaining: published === rows.length && rows.length === limit };
    });
  }
}
