import {
  type Equipment,
  type EquipmentCreate,
  type EquipmentOption,
  type EquipmentStatus,
  type EquipmentUpdate,
  ErrorCode,
  type MonitorTarget,
} from '@cm/contracts';
import { AppError, execute, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { staleVersion } from '../../shared/database/stale';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';

const columns = `e.id, e.room_id AS "roomId", e.name, e.model, e.serial_number AS "serialNumber",
  e.ip_address AS "ipAddress", e.status, e.notes, e.image_url AS "imageUrl", e.type,
  e.upstream_equipment_id AS "upstreamEquipmentId", e.version`;

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
  upstreamEquipmentId: 'upstream_equipment_id',
} as const;

const upstreamRefused = (message: string) =>
  new AppError(ErrorCode.VALIDATION_FAILED, message, [{ path: 'upstreamEquipmentId', message }]);

/** Monitored addresses (a range counts each of its addresses): of the equipment written, of the rest. */
export interface AddressCounts {
  own: number;
  others: number;
}

/** Judges a write by the campus's address counts; throws to refuse it (the transaction rolls back). */
export type AddressGuard = (counts: AddressCounts) => void;

export interface EquipmentParents {
  roomId: string;
  buildingId: string;
}

/** Records a person's status change in the update's transaction, before the row is written. */
export type StatusRecorder = (status: EquipmentStatus) => Promise<void>;

/** An update as written: the equipment, whether it changed its status or its room. */
export interface EquipmentUpdated {
  equipment: Equipment;
  statusChanged: boolean;
  previousRoomId: string;
}

@Injectable()
export class EquipmentRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  async get(id: string, tx?: Transaction): Promise<Equipment | null> {
    const rows = await queryRows<Equipment>(
      tx ?? this.reads,
      `SELECT ${columns}, ${checkColumns}
         FROM ${this.t.equipment} e
         LEFT JOIN ${this.t.state} st ON st.equipment_id = e.id
        WHERE e.id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** A room's equipment; null when the room does not exist (one query either way). */
  async listByRoom(roomId: string, tx?: Transaction): Promise<Equipment[] | null> {
    const rows = await queryRows<Equipment | { id: null }>(
      tx ?? this.reads,
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

  /** A building's equipment with its room, by room and name; null when the building does not exist. */
  async listByBuilding(buildingId: string): Promise<EquipmentOption[] | null> {
    const rows = await queryRows<EquipmentOption | { id: null }>(
      this.reads,
      `SELECT e.id, e.name, e.ip_address AS "ipAddress", r.id AS "roomId", r.name AS "roomName"
         FROM ${this.t.buildings} b
         LEFT JOIN ${this.t.rooms} r ON r.building_id = b.id
         LEFT JOIN ${this.t.equipment} e ON e.room_id = r.id
        WHERE b.id = $1
        ORDER BY lower(r.name), r.id, lower(e.name), e.id`,
      [buildingId],
    );
    if (rows.length === 0) return null;
    return rows.filter((row): row is EquipmentOption => row.id !== null);
  }

  /**
   * Inserts the equipment; a trigger gives it its state row and first status span in the same
   * statement. Fails with a foreign key violation when the room does not exist. With a guard, the
   * insert waits for and holds the campus's address count until `tx` commits.
   */
  async create(
    tx: Transaction,
    roomId: string,
    equipment: EquipmentCreate,
    guard?: AddressGuard,
  ): Promise<Equipment> {
    if (guard) await this.countAddresses(tx, null, guard);
    await this.checkUpstream(tx, null, equipment.upstreamEquipmentId);
    return this.insert(tx, roomId, equipment);
  }

  private async insert(
    manager: EntityManager,
    roomId: string,
    equipment: EquipmentCreate,
  ): Promise<Equipment> {
    const [row] = await queryRows<Equipment>(
      manager,
      `INSERT INTO ${this.t.equipment} AS e (room_id, name, model, serial_number, ip_address, status, notes,
              image_url, type, upstream_equipment_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
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
        equipment.upstreamEquipmentId,
      ],
    );
    return { ...row, lastCheckedAt: null, lastRttMs: null };
  }

  /**
   * Refuses an upstream device that does not exist, is the equipment itself, or is behind it
   * (a loop would leave each waiting on the other). Upstream writes take turns on an advisory
   * lock, so two edits cannot each close half of a loop.
   */
  private async checkUpstream(
    manager: EntityManager,
    id: string | null,
    upstreamId: string | null | undefined,
  ): Promise<void> {
    if (!upstreamId) return;
    if (upstreamId === id) throw upstreamRefused('A device cannot be its own upstream device');
    await execute(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.t.equipment}.upstream`]);
    const [row] = await queryRows<{ name: string; loops: boolean }>(
      manager,
      `WITH RECURSIVE chain (id, depth) AS (
         SELECT $1::uuid, 0
         UNION ALL
         SELECT e.upstream_equipment_id, c.depth + 1
           FROM chain c JOIN ${this.t.equipment} e ON e.id = c.id
          WHERE e.upstream_equipment_id IS NOT NULL AND c.depth < 1000
       )
       SELECT u.name, EXISTS (SELECT 1 FROM chain WHERE id = $2::uuid) AS loops
         FROM ${this.t.equipment} u WHERE u.id = $1`,
      [upstreamId, id],
    );
    if (!row) throw upstreamRefused(`Upstream device ${upstreamId} does not exist: choose another device`);
    if (row.loops) {
      throw upstreamRefused(
        `${row.name} is reached through this device: it cannot also be its upstream device (that would be a loop)`,
      );
    }
  }

  /**
   * Counts the campus's monitored addresses for `guard` under a transaction-scoped advisory lock,
   * so that two writes cannot both pass a limit on the count they each read. One scan of the
   * equipment table, the address text read in SQL: a range `a.b.c.d-N` is N - d + 1 addresses
   * (the pattern, which costs most of the scan, is matched only against ranges).
   */
  private async countAddresses(
    manager: EntityManager,
    id: string | null,
    guard: AddressGuard,
  ): Promise<void> {
    await execute(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.t.equipment}.addresses`]);
    const [counts] = await queryRows<AddressCounts>(
      manager,
      `SELECT coalesce(sum(n) FILTER (WHERE id = $1::uuid), 0)::int AS own,
              coalesce(sum(n) FILTER (WHERE id IS DISTINCT FROM $1::uuid), 0)::int AS others
         FROM (SELECT id,
                      CASE WHEN strpos(ip_address, '-') = 0 THEN 1
                           WHEN ip_address ~ '^[0-9.]+-[0-9]+$'
                           THEN split_part(ip_address, '-', 2)::int
                                - split_part(split_part(ip_address, '-', 1), '.', 4)::int + 1
                           ELSE 1 END AS n
                 FROM ${this.t.equipment}
                WHERE ip_address IS NOT NULL) a`,
      [id],
    );
    guard(counts);
  }

  /**
   * Applies the fields an update carries. A status that changes is handed to `recordStatus` as a
   * person's change (which makes older monitor results stale) and written by it. Null when the
   * equipment does not exist. A guard judges the address counts as in `create`; a stale-version
   * error when `ifVersion` is given and is not the equipment's version.
   */
  async update(
    manager: Transaction,
    id: string,
    changes: EquipmentUpdate,
    recordStatus: StatusRecorder,
    { guard, ifVersion }: { guard?: AddressGuard; ifVersion?: number } = {},
  ): Promise<EquipmentUpdated | null> {
    const current = await queryRows<{ status: string; roomId: string; version: number }>(
      manager,
      `SELECT status, room_id AS "roomId", version FROM ${this.t.equipment} WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (current.length === 0) return null;
    if (ifVersion !== undefined && current[0].version !== ifVersion)
      throw staleVersion('equipment', id, ifVersion);
    if (guard) await this.countAddresses(manager, id, guard);
    await this.checkUpstream(manager, id, changes.upstreamEquipmentId);
    const { status, ...rest } = changes;
    const statusChanged = status !== undefined && status !== current[0].status;
    if (statusChanged) await recordStatus(status);
    const row = await this.updateById<Equipment, EquipmentUpdate>(`${this.t.equipment} AS e`, columns, id, {
      changes: rest,
      updatable,
      manager,
    });
    const [check] = await queryRows<Pick<Equipment, 'lastCheckedAt' | 'lastRttMs'>>(
      manager,
      `SELECT ${checkColumns} FROM ${this.t.state} st WHERE st.equipment_id = $1`,
      [id],
    );
    // The status, when it changed, was written above, in this transaction: the row has it.
    return (
      row && {
        equipment: { ...row, ...check },
        statusChanged,
        previousRoomId: current[0].roomId,
      }
    );
  }

  /** Answers the equipment's room and building, or null when there was no such equipment. */
  delete(tx: Transaction, id: string, ifVersion?: number): Promise<EquipmentParents | null> {
    return this.deleteReturning(
      `${this.t.equipment} AS e`,
      `e.room_id AS "roomId", (SELECT r.building_id FROM ${this.t.rooms} r WHERE r.id = e.room_id) AS "buildingId"`,
      id,
      tx,
      { version: ifVersion, kind: 'equipment' },
    );
  }

  /** The building of a room, or null when the room is gone. */
  async buildingOf(roomId: string): Promise<string | null> {
    const [row] = await queryRows<{ buildingId: string }>(
      this.dataSource,
      `SELECT building_id AS "buildingId" FROM ${this.t.rooms} WHERE id = $1`,
      [roomId],
    );
    return row?.buildingId ?? null;
  }

  /** Equipment with an address, ordered by id, after a cursor. */
  targets(after: string | undefined, limit: number): Promise<MonitorTarget[]> {
    return queryRows<MonitorTarget>(
      this.dataSource,
      `SELECT id AS "equipmentId", ip_address AS "ipAddress", status
         FROM ${this.t.equipment}
        WHERE ip_address IS NOT NULL AND ($1::uuid IS NULL OR id > $1::uuid)
        ORDER BY id
        LIMIT $2`,
      [after ?? null, limit],
    );
  }
}
