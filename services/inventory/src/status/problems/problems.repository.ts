import { type Problems, problemStatuses, type ProblemDevice } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { inMaintenanceJoin } from '../../shared/database/in-maintenance';
import { TableRepository } from '../../shared/database/table.repository';
import { byPlace } from './by-place';

interface ProblemRow {
  id: string;
  name: string;
  status: ProblemDevice['status'];
  ipAddress: string | null;
  since: Date;
  roomId: string;
  roomName: string;
  floor: string;
  buildingId: string;
  buildingName: string;
}

@Injectable()
export class ProblemsRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Devices down now, apart from those under a maintenance window: nobody expects them to answer.
   * One query, longest down first; grouping keeps that order, so a building and a room come where
   * their longest-down device does.
   */
  async list(): Promise<Problems> {
    const rows = await queryRows<ProblemRow>(
      this.dataSource,
      `SELECT e.id, e.name, e.status, e.ip_address AS "ipAddress", st.status_at AS since,
              r.id AS "roomId", r.name AS "roomName", r.floor, b.id AS "buildingId", b.name AS "buildingName"
         FROM ${this.t.equipment} e
         JOIN ${this.t.state} st ON st.equipment_id = e.id
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
         ${inMaintenanceJoin(this.t, 'e')}
        WHERE e.status = ANY($1::text[]) AND mw.id IS NULL
        ORDER BY st.status_at, e.id`,
      [problemStatuses],
    );
    const { buildings, roomCount } = byPlace(rows, (row) => ({
      id: row.id,
      name: row.name,
      status: row.status,
      ipAddress: row.ipAddress,
      since: row.since.toISOString(),
    }));
    return { deviceCount: rows.length, roomCount, buildings };
  }
}
