import { type StatusEvent } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isPgError, pgCodes, type Tables, tablesOf } from '../database/sql';

/** What became of one status event. */
export type CheckOutcome =
  /** Recorded, and the equipment's status follows it. */
  | 'applied'
  /** Recorded in the history only: older than the current status, or the equipment is in maintenance. */
  | 'history-only'
  | 'duplicate'
  | 'unknown-equipment';

@Injectable()
export class StatusRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  /**
   * Records one check in one transaction. The event id is a unique key of the history, so a
   * redelivered event inserts nothing and changes nothing. The equipment's status follows only
   * a check newer than whatever set it last (a check or a person), and never replaces
   * maintenance, which a person sets and a person ends.
   */
  recordCheck(event: StatusEvent): Promise<CheckOutcome> {
    return this.dataSource
      .transaction(async (manager): Promise<CheckOutcome> => {
        const inserted: unknown[] = await manager.query(
          `INSERT INTO ${this.t.history} (equipment_id, status, checked_at, rtt_ms, results, source, event_id)
           SELECT $1, $2, $3, $4, $5::jsonb, 'monitor', $6
            WHERE EXISTS (SELECT 1 FROM ${this.t.equipment} WHERE id = $1)
           ON CONFLICT (event_id) DO NOTHING
           RETURNING id`,
          [
            event.equipmentId,
            event.status,
            event.checkedAt,
            event.rttMs,
            JSON.stringify(event.results),
            event.eventId,
          ],
        );
        if (inserted.length === 0) {
          const known: unknown[] = await manager.query(`SELECT 1 FROM ${this.t.equipment} WHERE id = $1`, [
            event.equipmentId,
          ]);
          return known.length ? 'duplicate' : 'unknown-equipment';
        }
        const [rows]: [{ applied: boolean }[]] = await manager.query(
          `UPDATE ${this.t.equipment}
              SET last_checked_at = GREATEST(last_checked_at, $2::timestamptz),
                  status = CASE WHEN status_at < $2::timestamptz AND status <> 'maintenance' THEN $3 ELSE status END,
                  status_at = CASE WHEN status_at < $2::timestamptz AND status <> 'maintenance' THEN $2::timestamptz
                                   ELSE status_at END
            WHERE id = $1
            RETURNING status_at = $2::timestamptz AS applied`,
          [event.equipmentId, event.checkedAt, event.status],
        );
        return rows[0]?.applied ? 'applied' : 'history-only';
      })
      .catch((error: unknown) => {
        // The equipment was deleted between our check and our insert.
        if (isPgError(error, pgCodes.foreignKeyViolation)) return 'unknown-equipment';
        throw error;
      });
  }

  /** Deletes history older than `before`, a batch at a time; answers how many rows went. */
  async prune(before: Date, batch = 5000): Promise<number> {
    let total = 0;
    for (;;) {
      const [, count]: [unknown, number] = await this.dataSource.query(
        `DELETE FROM ${this.t.history}
          WHERE id IN (SELECT id FROM ${this.t.history} WHERE checked_at < $1 LIMIT $2)`,
        [before, batch],
      );
      total += count;
      if (count < batch) return total;
    }
  }
}
