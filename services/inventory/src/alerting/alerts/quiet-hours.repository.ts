import { type BuildingQuietHours, type QuietHours } from '@cm/contracts';
import { execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository } from '../../shared/database/table.repository';

/** Each building's teaching hours (`building_quiet_hours`, one row or none). */
@Injectable()
export class QuietHoursRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** Null when the building does not exist. */
  async get(buildingId: string): Promise<BuildingQuietHours | null> {
    const rows = await queryRows<{ id: string; quietHours: QuietHours | null }>(
      this.dataSource,
      `SELECT b.id,
              CASE WHEN q.building_id IS NULL THEN NULL
                   ELSE json_build_object('days', q.days, 'start', q.starts, 'end', q.ends,
                                          'timeZone', q.time_zone, 'outside', q.outside,
                                          'idleRoomsWait', q.idle_rooms_wait) END AS "quietHours"
         FROM ${this.t.buildings} b LEFT JOIN ${this.t.quietHours} q ON q.building_id = b.id
        WHERE b.id = $1`,
      [buildingId],
    );
    return rows[0] ? { buildingId, quietHours: rows[0].quietHours } : null;
  }

  /** Sets or (null) removes them; fails with a foreign key violation for an unknown building. */
  async set(buildingId: string, hours: QuietHours | null): Promise<void> {
    if (hours === null) {
      await execute(this.dataSource, `DELETE FROM ${this.t.quietHours} WHERE building_id = $1`, [buildingId]);
      return;
    }
    await execute(
      this.dataSource,
      `INSERT INTO ${this.t.quietHours} (building_id, days, starts, ends, time_zone, outside, idle_rooms_wait)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (building_id) DO UPDATE
          SET days = excluded.days, starts = excluded.starts, ends = excluded.ends,
              time_zone = excluded.time_zone, outside = excluded.outside,
              idle_rooms_wait = excluded.idle_rooms_wait, updated_at = now()`,
      [buildingId, hours.days, hours.start, hours.end, hours.timeZone, hours.outside, hours.idleRoomsWait],
    );
  }
}
