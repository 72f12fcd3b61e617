import { type ReadinessClass, type ReadinessState } from '@cm/contracts';
import { queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoOf } from '../shared/database/sql';
import { TableRepository } from '../shared/database/table.repository';

/** A class due for its check: its room and start. */
export interface DueClass {
  roomId: string;
  startsAt: Date;
}

/**
 * The readiness checks (`readiness_checks`), with the classes of the schedules and the rooms'
 * equipment read in SQL, as the schedules read the catalogue's rooms.
 */
@Injectable()
export class ReadinessRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** Rooms with a class starting in [now, now + lead) that no replica has claimed yet. */
  due(now: Date, leadMs: number): Promise<DueClass[]> {
    return queryRows<DueClass>(
      this.dataSource,
      `SELECT DISTINCT o.room_id AS "roomId", o.starts_at AS "startsAt"
         FROM ${this.t.occurrences} o
        WHERE o.room_id IS NOT NULL AND o.starts_at >= $1
          AND o.starts_at < $1::timestamptz + $2 * interval '1 millisecond'
          AND NOT EXISTS (SELECT 1 FROM ${this.t.readiness} c
                           WHERE c.room_id = o.room_id AND c.starts_at = o.starts_at)
        ORDER BY o.starts_at`,
      [now, leadMs],
    );
  }

  /** Claims a class's check; true for the one replica whose insert made the row. */
  async claim(due: DueClass, now: Date): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `INSERT INTO ${this.t.readiness} (room_id, starts_at, claimed_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING room_id`,
      [due.roomId, due.startsAt, now],
    );
    return rows.length > 0;
  }

  /** The room's equipment, as the room check takes it, with names for the reasons. */
  equipmentOf(roomId: string): Promise<{ id: string; name: string; ipAddress: string | null }[]> {
    return queryRows(
      this.dataSource,
      `SELECT id, name, ip_address AS "ipAddress" FROM ${this.t.equipment} WHERE room_id = $1 ORDER BY name, id`,
      [roomId],
    );
  }

  async record(
    due: DueClass,
    result: { state: Exclude<ReadinessState, 'not-checked'>; reasons: string[]; checkedAt: Date },
  ): Promise<void> {
    await queryChanged(
      this.dataSource,
      `UPDATE ${this.t.readiness} SET state = $3, reasons = $4, checked_at = $5
        WHERE room_id = $1 AND starts_at = $2`,
      [due.roomId, due.startsAt, result.state, JSON.stringify(result.reasons), result.checkedAt],
    );
  }

  /** The classes starting in [from, to), soonest first, with their rooms' checks. */
  list(from: Date, to: Date): Promise<ReadinessClass[]> {
    return queryRows<ReadinessClass>(
      this.dataSource,
      `SELECT o.title, ${isoOf('o.starts_at')} AS "startsAt", ${isoOf('o.ends_at')} AS "endsAt",
              json_build_object('id', r.id, 'name', r.name) AS room,
              json_build_object('id', b.id, 'name', b.name) AS building,
              coalesce(c.state, 'not-checked') AS state, coalesce(c.reasons, '[]'::jsonb) AS reasons,
              CASE WHEN c.checked_at IS NULL THEN NULL ELSE ${isoOf('c.checked_at')} END AS "checkedAt"
         FROM ${this.t.occurrences} o
         JOIN ${this.t.rooms} r ON r.id = o.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         LEFT JOIN ${this.t.readiness} c ON c.room_id = o.room_id AND c.starts_at = o.starts_at
        WHERE o.starts_at >= $1 AND o.starts_at < $2
        ORDER BY o.starts_at, b.name, r.name, o.id
        LIMIT 500`,
      [from, to],
    );
  }
}
