import {
  type Equipment,
  type EquipmentCreate,
  type EquipmentStatus,
  type EquipmentUpdate,
  type MonitorTarget,
} from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TableRepository } from '../database/table.repository';

const columns = `e.id, e.room_id AS "roomId", e.name, e.model, e.serial_number AS "serialNumber",
  e.ip_address AS "ipAddress", e.status, e.notes, e.image_url AS "imageUrl", e.type,
  e.last_checked_at AS "lastCheckedAt"`;

const updatable = {
  roomId: 'room_id',
  name: 'name',
  model: 'model',
  serialNumber: 'serial_number',
  ipAddress: 'ip_address',
  status: 'status',
  notes: 'notes',
  imageUrl: 'image_url',
  type: 'type',
} as const;

@Injectable()
export class EquipmentRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** A room's equipment; null when the room does not exist (one query either way). */
  async listByRoom(roomId: string): Promise<Equipment[] | null> {
    const rows: (Equipment | { id: null })[] = await this.dataSource.query(
      `SELECT ${columns}
         FROM ${this.t.rooms} r
         LEFT JOIN ${this.t.equipment} e ON e.room_id = r.id
        WHERE r.id = $1
        ORDER BY lower(e.name), e.id`,
      [roomId],
    );
    if (rows.length === 0) return null;
    return rows.filter((row): row is Equipment => row.id !== null);
  }

  /**
   * Inserts the equipment and records its first status in the history, in one transaction.
   * Fails with a foreign key violation when the room does not exist.
   */
  create(roomId: string, equipment: EquipmentCreate): Promise<Equipment> {
    return this.dataSource.transaction(async (manager) => {
      const [row]: Equipment[] = await manager.query(
        `INSERT INTO ${this.t.equipment} AS e (room_id, name, model, serial_number, ip_address, status, notes,
                image_url, type)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         RETURNING ${columns}`,
        [
          roomId,
          equipment.name,
          equipment.model,
          equipment.serialNumber,
          equipment.ipAddress,
          equipment.status,
          equipment.notes,
          equipment.imageUrl,
          equipment.type,
        ],
      );
      await this.recordManualStatus(manager, row.id, row.status as EquipmentStatus);
      return row;
    });
  }

  /**
   * Applies the fields an update carries. A status that changes is recorded in the history as a
   * manual change, and makes older monitor results stale. Null when the equipment does not exist.
   */
  update(id: string, changes: EquipmentUpdate): Promise<Equipment | null> {
    return this.dataSource.transaction(async (manager) => {
      const current: { status: string }[] = await manager.query(
        `SELECT status FROM ${this.t.equipment} WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (current.length === 0) return null;
      const statusChanged = changes.status !== undefined && changes.status !== current[0].status;
      const row = await this.updateById<Equipment, EquipmentUpdate>(`${this.t.equipment} AS e`, columns, id, {
        changes,
        updatable,
        extraSet: statusChanged ? ', status_at = now()' : '',
        manager,
      });
      if (statusChanged) await this.recordManualStatus(manager, id, changes.status!);
      return row;
    });
  }

  delete(id: string): Promise<boolean> {
    return this.deleteById(this.t.equipment, id);
  }

  /** Equipment with an address, ordered by id, after a cursor. */
  targets(after: string | undefined, limit: number): Promise<MonitorTarget[]> {
    return this.dataSource.query(
      `SELECT id AS "equipmentId", ip_address AS "ipAddress", status
         FROM ${this.t.equipment}
        WHERE ip_address IS NOT NULL AND ($1::uuid IS NULL OR id > $1::uuid)
        ORDER BY id
        LIMIT $2`,
      [after ?? null, limit],
    );
  }

  private async recordManualStatus(
    manager: EntityManager,
    id: string,
    status: EquipmentStatus,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.t.history} (equipment_id, status, checked_at, source) VALUES ($1, $2, now(), 'manual')`,
      [id, status],
    );
  }
}
