import { type AlertClass } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../../shared/database/sql';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';

/**
 * The class schedules' occurrences as alerting reads them: the class that makes a room's alert
 * urgent. Read in SQL from the schedules' table (as schedules read the catalogue's rooms), so that
 * alerting does not import the schedules module, which reads alerting's address rules.
 */
@Injectable()
export class RoomClassRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * The class in the room at `at`, or else the first one starting within `leadMs` of it; null
   * when there is neither. Served by the `(room_id, starts_at)` index.
   */
  async classAt(tx: Transaction, roomId: string, at: Date, leadMs: number): Promise<AlertClass | null> {
    const [row] = await queryRows<AlertClass>(
      tx,
      `SELECT o.title, ${isoOf('o.starts_at')} AS "startsAt", ${isoOf('o.ends_at')} AS "endsAt"
         FROM ${this.t.occurrences} o
        WHERE o.room_id = $1 AND o.ends_at > $2
          AND o.starts_at < $2::timestamptz + $3 * interval '1 millisecond'
        ORDER BY o.starts_at, o.ends_at, o.id
        LIMIT 1`,
      [roomId, at, leadMs],
    );
    return row ?? null;
  }

  /**
   * Whether the timetable knows the room (it has classes, or a schedule of its own) and it has no
   * class from `at` until `dayEnd`. A room no schedule covers is not idle: nothing says so.
   */
  async idleUntil(tx: Transaction, roomId: string, at: Date, dayEnd: Date): Promise<boolean> {
    const [row] = await queryRows<{ idle: boolean }>(
      tx,
      `SELECT (EXISTS (SELECT 1 FROM ${this.t.occurrences} WHERE room_id = $1)
               OR EXISTS (SELECT 1 FROM ${this.t.scheduleSources} WHERE room_id = $1))
              AND NOT EXISTS (SELECT 1 FROM ${this.t.occurrences}
                               WHERE room_id = $1 AND ends_at > $2 AND starts_at < $3) AS idle`,
      [roomId, at, dayEnd],
    );
    return row.idle;
  }
}
