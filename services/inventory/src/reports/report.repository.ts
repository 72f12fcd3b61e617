import { type EquipmentUptime, type ReportSummary } from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../database/sql';

type UptimeRow = Omit<EquipmentUptime, 'uptimePercent' | 'lastUpdated'> & {
  lastUpdated: Date;
  upSeconds: number;
  downSeconds: number;
};

@Injectable()
export class ReportRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  async counts(): Promise<Omit<ReportSummary, 'overallUptimePercent'>> {
    const [row] = await this.dataSource.query(
      `SELECT (SELECT count(*)::int FROM ${this.t.buildings}) AS buildings,
              count(*)::int AS "totalEquipment",
              (count(*) FILTER (WHERE status = 'active'))::int AS online,
              (count(*) FILTER (WHERE status = 'inactive'))::int AS offline
         FROM ${this.t.equipment}`,
    );
    return row;
  }

  /**
   * One page of equipment (by id) with the time each spent up and down within [from, to]. Each
   * recorded status holds until the next one; the last status recorded before `from` covers the
   * start of the window. Read through the (equipment, checked_at) index, a page at a time.
   */
  uptimePage(after: string | undefined, limit: number, from: Date, to: Date): Promise<UptimeRow[]> {
    return this.dataSource.query(
      `WITH page AS (
         SELECT e.id, e.name, e.type, e.ip_address, e.status, GREATEST(e.status_at, e.updated_at) AS last_updated,
                r.id AS room_id, r.name AS room_name, b.id AS building_id, b.name AS building_name
           FROM ${this.t.equipment} e
           JOIN ${this.t.rooms} r ON r.id = e.room_id
           JOIN ${this.t.buildings} b ON b.id = r.building_id
          WHERE $1::uuid IS NULL OR e.id > $1::uuid
          ORDER BY e.id
          LIMIT $2
       ), spans AS (
         SELECT p.id, h.status,
                GREATEST(h.checked_at, $3::timestamptz) AS starts,
                LEAST(COALESCE(LEAD(h.checked_at) OVER (PARTITION BY p.id ORDER BY h.checked_at, h.id), $4::timestamptz),
                      $4::timestamptz) AS ends
           FROM page p
           CROSS JOIN LATERAL (
             (SELECT id, status, checked_at FROM ${this.t.history}
               WHERE equipment_id = p.id AND checked_at <= $3::timestamptz
               ORDER BY checked_at DESC, id DESC LIMIT 1)
             UNION ALL
             (SELECT id, status, checked_at FROM ${this.t.history}
               WHERE equipment_id = p.id AND checked_at > $3::timestamptz AND checked_at <= $4::timestamptz)
           ) h
       )
       SELECT p.id AS "equipmentId", p.building_id AS "buildingId", p.building_name AS "buildingName",
              p.room_id AS "roomId", p.room_name AS "roomName", p.name, p.type, p.ip_address AS "ipAddress",
              p.status, p.last_updated AS "lastUpdated",
              COALESCE(sum(EXTRACT(EPOCH FROM s.ends - s.starts)) FILTER (WHERE s.status = 'active'), 0)::float8
                AS "upSeconds",
              COALESCE(sum(EXTRACT(EPOCH FROM s.ends - s.starts))
                FILTER (WHERE s.status IN ('inactive', 'partial')), 0)::float8 AS "downSeconds"
         FROM page p
         LEFT JOIN spans s ON s.id = p.id AND s.ends > s.starts
        GROUP BY p.id, p.building_id, p.building_name, p.room_id, p.room_name, p.name, p.type, p.ip_address,
                 p.status, p.last_updated
        ORDER BY p.id`,
      [after ?? null, limit, from, to],
    );
  }
}
