import { type Room, type RoomCreate, type RoomListItem, type RoomUpdate } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { inMaintenanceJoin } from '../../shared/database/in-maintenance';
import { roomFaultsSelect, statusCountsOf, statusCountsSelect } from '../status-counts';

const columns = `r.id, r.building_id AS "buildingId", r.name, r.type, r.floor, r.capacity,
  r.room_size AS "roomSize", r.is_ada_accessible::int AS "isAdaAccessible", r.image_url AS "imageUrl",
  r.wiring_diagram_url AS "wiringDiagramUrl", r.seating_layout_url AS "seatingLayoutUrl", r.version`;

const updatable = {
  name: 'name',
  type: 'type',
  floor: 'floor',
  capacity: 'capacity',
  roomSize: 'room_size',
  isAdaAccessible: 'is_ada_accessible',
  imageUrl: 'image_url',
  wiringDiagramUrl: 'wiring_diagram_url',
  seatingLayoutUrl: 'seating_layout_url',
} as const;

@Injectable()
export class RoomRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /**
   * A building's rooms with their equipment counts, in all and by status, in one query; null when
   * the building does not exist (the outer join keeps one row for a building without rooms).
   */
  async listByBuilding(buildingId: string): Promise<RoomListItem[] | null> {
    const rows = await queryRows<RoomListItem | { id: null }>(
      this.reads,
      `SELECT ${columns},
              c.total AS "equipmentCount", ${statusCountsOf('c')} AS "statusCounts",
              ${roomFaultsSelect(this.t, 'r')} AS faults
         FROM ${this.t.buildings} b
         LEFT JOIN ${this.t.rooms} r ON r.building_id = b.id
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS total, ${statusCountsSelect('e')}
             FROM ${this.t.equipment} e
             ${inMaintenanceJoin(this.t, 'e')}
            WHERE e.room_id = r.id
         ) c
        WHERE b.id = $1
        ORDER BY lower(r.name), r.id`,
      [buildingId],
    );
    if (rows.length === 0) return null;
    return rows.filter((row): row is RoomListItem => row.id !== null);
  }

  async get(id: string): Promise<Room | null> {
    const rows = await queryRows<Room>(
      this.reads,
      `SELECT ${columns} FROM ${this.t.rooms} r WHERE r.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** Fails with a foreign key violation when the building does not exist. */
  async create(tx: Transaction, buildingId: string, room: RoomCreate): Promise<Room> {
    const [row] = await queryRows<Room>(
      tx,
      `INSERT INTO ${this.t.rooms} AS r (building_id, name, type, floor, capacity, room_size, is_ada_accessible,
              image_url, wiring_diagram_url, seating_layout_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING ${columns}`,
      [
        buildingId,
        room.name,
        room.type,
        room.floor,
        room.capacity,
        room.roomSize,
        room.isAdaAccessible,
        room.imageUrl,
        room.wiringDiagramUrl,
        room.seatingLayoutUrl,
      ],
    );
    return row;
  }

  /** Null when there is no such room; a stale-version error when `ifVersion` is not its version. */
  update(tx: Transaction, id: string, changes: RoomUpdate, ifVersion?: number): Promise<Room | null> {
    return this.updateById(`${this.t.rooms} AS r`, columns, id, {
      changes,
      updatable,
      manager: tx,
      ifVersion: { version: ifVersion, kind: 'room' },
    });
  }

  /**
   * Its equipment goes with it, by the foreign key's cascade, in this one statement. Answers the
   * room's building, or null when there was no such room.
   */
  delete(tx: Transaction, id: string, ifVersion?: number): Promise<{ buildingId: string } | null> {
    return this.deleteReturning(this.t.rooms, 'building_id AS "buildingId"', id, tx, {
      version: ifVersion,
      kind: 'room',
    });
  }
}
