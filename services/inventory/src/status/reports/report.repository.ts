import { type EquipmentUptime, type ReportSummary } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';
import { uptimeSecondsSql } from './uptime';

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
    const [row] = await queryRows<Omit<ReportSummary, 'overallUptimePercent'>>(
      this.dataSource,
      `SELECT (SELECT count(*)::int FROM ${this.t.buildings}) AS buildings,
              count(*)::int AS "totalEquipment",
              (count(*) FILTER (WHERE status = 'active'))::int AS online,
              (count(*) FILTER (WHERE status = 'inactive'))::int AS offline
         FROM ${this.t.equipment}`,
    );
    return row;
  }

  /**
   * One page of equipment (by id) with the time each spent up and down within [from, to]
   * (`uptimeSecondsSql`, maintenance windows left out). Read through the spans' (equipment, start) key, a page at a time.
   */
  uptimePage(after: string | undefined, limit: number, from: Date, to: Date): Promise<UptimeRow[]> {
    return queryRows<UptimeRow>(
      this.dataSource,
      `SELECT e.id AS "equipmentId", b.id AS "buildingId", b.name AS "buildingName", r.id AS "roomId",
              r.name AS "roomName", e.name, e.type, e.ip_address AS "ipAddress", e.status,
              GREATEST(st.status_at, e.updated_at) AS "lastUpdated",
              COALESCE(u.up, 0)::float8 AS "upSeconds", COALESCE(u.down, 0)::float8 AS "downSeconds"
         FROM ${this.t.equipment} e
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         JOIN ${this.t.state} st ON st.equipment_id = e.id
         LEFT JOIN LATERAL (${uptimeSecondsSql(this.t, 'e.id', '$3', '$4', { room: 'r.id', building: 'b.id' })}
         ) u ON true
        WHERE $1::uuid IS NULL OR e.id > $1::uuid
        ORDER BY e.id
        LIMIT $2`,
      [after ?? null, limit, from, to],
    );
  }
}
