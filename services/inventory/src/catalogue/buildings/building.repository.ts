import {
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
} from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { inMaintenanceJoin } from '../../shared/database/in-maintenance';
import { buildingFaultsJoin, statusCountsOf, statusCountsSelect } from '../status-counts';

const columns = `b.id, b.name, b.description, b.image_url AS "imageUrl", b.version`;
const updatable = { name: 'name', description: 'description', imageUrl: 'image_url' } as const;

@Injectable()
export class BuildingRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * Room counts and equipment counts by status come from the same query: one round trip however
   * many buildings there are. The equipment is counted in one pass grouped by building (a lateral
   * count per building scanned the equipment once per building: 60 ms at 10,000, against 3 ms).
   */
  list(): Promise<BuildingListItem[]> {
    return queryRows<BuildingListItem>(
      this.reads,
      `SELECT ${columns},
              (SELECT count(*)::int FROM ${this.t.rooms} r WHERE r.building_id = b.id) AS "roomCount",
              ${statusCountsOf('c')} AS "statusCounts", coalesce(f.faults, 0) AS faults
         FROM ${this.t.buildings} b
         ${buildingFaultsJoin(this.t, 'b')}
         LEFT JOIN (
           SELECT r.building_id, ${statusCountsSelect('e')}
             FROM ${this.t.rooms} r
             JOIN ${this.t.equipment} e ON e.room_id = r.id
             ${inMaintenanceJoin(this.t, 'e')}
            GROUP BY r.building_id
         ) c ON c.building_id = b.id
        ORDER BY lower(b.name), b.id`,
    );
  }

  async get(id: string): Promise<Building | null> {
    const rows = await queryRows<Building>(
      this.reads,
      `SELECT ${columns} FROM ${this.t.buildings} b WHERE b.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async create(tx: Transaction, building: BuildingCreate): Promise<Building> {
    const [row] = await queryRows<Building>(
      tx,
      `INSERT INTO ${this.t.buildings} AS b (name, description, image_url) VALUES ($1, $2, $3) RETURNING ${columns}`,
      [building.name, building.description, building.imageUrl],
    );
    return row;
  }

  /** Null when there is no such building; a stale-version error when `ifVersion` is not its version. */
  update(tx: Transaction, id: string, changes: BuildingUpdate, ifVersion?: number): Promise<Building | null> {
    return this.updateById(`${this.t.buildings} AS b`, columns, id, {
      changes,
      updatable,
      manager: tx,
      ifVersion: { version: ifVersion, kind: 'building' },
    });
  }

  /** Its rooms and their equipment go with it, by the foreign keys' cascades, in this one statement. */
  delete(tx: Transaction, id: string, ifVersion?: number): Promise<boolean> {
    return this.deleteById(this.t.buildings, id, tx, { version: ifVersion, kind: 'building' });
  }
}
