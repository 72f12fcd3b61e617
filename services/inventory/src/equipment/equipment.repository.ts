import {
  type Equipment,
  type EquipmentCreate,
  type EquipmentUpdate,
  type MonitorTarget,
} from '@cm/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository } from '../database/table.repository';
import { StatusRepository } from '../status/status.repository';

const columns = `e.id, e.room_id AS "roomId", e.name, e.model, e.serial_number AS "serialNumber",
  e.ip_address AS "ipAddress", e.status, e.notes, e.image_url AS "imageUrl", e.type`;

/** The monitor's last word on it, from the state row every check rewrites. */
const checkColumns = `st.last_checked_at AS "lastCheckedAt", st.last_rtt_ms AS "lastRttMs"`;

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
  constructor(
    dataSource: DataSource,
    private readonly status: StatusRepository,
  ) {
    super(dataSource);
  }

  /** A room's equipment; null when the room does not exist (one query either way). */
  async listByRoom(roomId: string): Promise<Equipment[] | null> {
    const rows: (Equipment | { id: null })[] = await this.dataSource.query(
      `SELECT ${columns}, ${checkColumns}
         FROM ${this.t.rooms} r
         LEFT JOIN ${this.t.equipment} e ON e.room_id = r.id
         LEFT JOIN ${this.t.state} st ON st.equipment_id = e.id
        WHERE r.id = $1
        ORDER BY lower(e.name), e.id`,
      [roomId],
    );
    if (rows.length === 0) return null;
    return rows.filter((row): row is Equipment => row.id !== null);
  }

  /**
   * Inserts the equipment; a trigger gives it its state row and first status span in the same
   * statement. Fails with a foreign key violation when the room does not exist.
   */
  async create(roomId: string, equipment: EquipmentCreate): Promise<Equipment> {
    const [row]: Equipment[] = await this.dataSource.query(
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
    return { ...row, lastCheckedAt: null, lastRttMs: null };
  }

  /**
   * Applies the fields an update carries. A status that changes is recorded as a person's
   * change, and makes older monitor results stale. Null when the equipment does not exist.
   */
  update(id: string, changes: EquipmentUpdate): Promise<Equipment | null> {
    return this.dataSource.transaction(async (manager) => {
      const current: { status: string }[] = await manager.query(
        `SELECT status FROM ${this.t.equipment} WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (current.length === 0) return null;
      const { status, ...rest } = changes;
      if (status !== undefined && status !== current[0].status) {
        await this.status.recordManual(manager, id, status);
      }
      const row = await this.updateById<Equipment, EquipmentUpdate>(`${this.t.equipment} AS e`, columns, id, {
        changes: rest,
        updatable,
        manager,
      });
      const [check]: Pick<Equipment, 'lastCheckedAt' | 'lastRttMs'>[] = await manager.query(
        `SELECT ${checkColumns} FROM ${this.t.state} st WHERE st.equipment_id = $1`,
        [id],
      );
      // The status, when it changed, was written above, in this transaction: the row has it.
      return row && { ...row, ...check };
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
}
