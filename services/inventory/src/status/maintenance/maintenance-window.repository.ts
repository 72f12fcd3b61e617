import { MAINTENANCE_LIST_MAX, type MaintenanceWindow } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TableRepository, type Transaction } from '../../shared/database/table.repository';
import { type MaintenanceTarget } from '../../shared/events/inventory-events';
import { coveringWindowsSql } from './covering';

/** A window's target: exactly one id set. */
export type WindowTarget = MaintenanceTarget;

export interface WindowFields extends WindowTarget {
  startsAt: string;
  endsAt: string;
  reason: string;
}

/** A place and what holds it: a building; a room and its building; an equipment, its room and building. */
export interface Place {
  buildingId: string;
  roomId: string | null;
  equipmentId: string | null;
}

export interface WindowFilter {
  place?: Place;
  /** In force at `at` (true), or not (false). */
  active?: { at: Date; inForce: boolean };
  /** Overlapping [from, to); either end may be open. */
  from?: Date;
  to?: Date;
}

type WindowRow = Omit<MaintenanceWindow, 'startsAt' | 'endsAt'> & { startsAt: Date; endsAt: Date };

/** The columns of `w` (a window row) as the contract names them, with its target's name. */
const columns = `w.id, w.building_id AS "buildingId", w.room_id AS "roomId", w.equipment_id AS "equipmentId",
  COALESCE(tb.name, tr.name, te.name) AS "targetName", w.starts_at AS "startsAt", w.ends_at AS "endsAt", w.reason`;

const toWindow = ({ startsAt, endsAt, ...row }: WindowRow): MaintenanceWindow => ({
  ...row,
  startsAt: startsAt.toISOString(),
  endsAt: endsAt.toISOString(),
});

@Injectable()
export class MaintenanceWindowRepository extends TableRepository {
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** `FROM` windows `w` with their targets' names. */
  private from(windows: string): string {
    return `${windows} w ${this.targetNames()}`;
  }

  private targetNames(): string {
    return `LEFT JOIN ${this.t.buildings} tb ON tb.id = w.building_id
      LEFT JOIN ${this.t.rooms} tr ON tr.id = w.room_id
      LEFT JOIN ${this.t.equipment} te ON te.id = w.equipment_id`;
  }

  async get(id: string): Promise<MaintenanceWindow | null> {
    const rows = await queryRows<WindowRow>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.from(this.t.windows)} WHERE w.id = $1`,
      [id],
    );
    return rows[0] ? toWindow(rows[0]) : null;
  }

  /** Windows by start (at most `MAINTENANCE_LIST_MAX`). */
  async list(filter: WindowFilter): Promise<MaintenanceWindow[]> {
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where: string[] = [];
    const { place, active, from, to } = filter;
    if (place) {
      // What holds the place, the place, and what it holds.
      const building = param(place.buildingId);
      const concerns = [`w.building_id = ${building}`];
      if (place.equipmentId) {
        concerns.push(`w.room_id = ${param(place.roomId)}`, `w.equipment_id = ${param(place.equipmentId)}`);
      } else if (place.roomId) {
        const room = param(place.roomId);
        concerns.push(
          `w.room_id = ${room}`,
          `w.equipment_id IN (SELECT id FROM ${this.t.equipment} WHERE room_id = ${room})`,
        );
      } else {
        concerns.push(
          `w.room_id IN (SELECT id FROM ${this.t.rooms} WHERE building_id = ${building})`,
          `w.equipment_id IN (SELECT e.id FROM ${this.t.equipment} e
                                JOIN ${this.t.rooms} r ON r.id = e.room_id WHERE r.building_id = ${building})`,
        );
      }
      where.push(`(${concerns.join(' OR ')})`);
    }
    if (active) {
      const at = param(active.at);
      const inForce = `(w.starts_at <= ${at} AND w.ends_at > ${at})`;
      where.push(active.inForce ? inForce : `NOT ${inForce}`);
    }
    if (from) where.push(`w.ends_at > ${param(from)}`);
    if (to) where.push(`w.starts_at < ${param(to)}`);
    const rows = await queryRows<WindowRow>(
      this.dataSource,
      `SELECT ${columns} FROM ${this.from(this.t.windows)}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY w.starts_at, w.id
        LIMIT ${MAINTENANCE_LIST_MAX}`,
      params,
    );
    return rows.map(toWindow);
  }

  /** Fails with a foreign key violation when the target does not exist. */
  async create(fields: WindowFields, tx: Transaction = this.dataSource.manager): Promise<MaintenanceWindow> {
    const [row] = await queryRows<WindowRow>(
      tx,
      `WITH w AS (
         INSERT INTO ${this.t.windows} (building_id, room_id, equipment_id, starts_at, ends_at, reason)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *
       )
       SELECT ${columns} FROM ${this.from('w')}`,
      [fields.buildingId, fields.roomId, fields.equipmentId, fields.startsAt, fields.endsAt, fields.reason],
    );
    return toWindow(row);
  }

  /**
   * Writes the changed fields (a target replaces all three ids); null when no window has the id.
   * Fails with a foreign key violation when a new target does not exist, and with a check
   * violation when the times it leaves break the table's rule.
   */
  async update(
    id: string,
    changes: Partial<WindowFields>,
    tx: Transaction = this.dataSource.manager,
  ): Promise<MaintenanceWindow | null> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
    if ('buildingId' in changes) {
      set('building_id', changes.buildingId);
      set('room_id', changes.roomId);
      set('equipment_id', changes.equipmentId);
    }
    if (changes.startsAt !== undefined) set('starts_at', changes.startsAt);
    if (changes.endsAt !== undefined) set('ends_at', changes.endsAt);
    if (changes.reason !== undefined) set('reason', changes.reason);
    const [row] = await queryRows<WindowRow>(
      tx,
      `WITH w AS (
         UPDATE ${this.t.windows} SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *
       )
       SELECT ${columns} FROM ${this.from('w')}`,
      params,
    );
    return row ? toWindow(row) : null;
  }

  /** The target the window had, or null when there was no such window. */
  delete(id: string, tx: Transaction = this.dataSource.manager): Promise<WindowTarget | null> {
    return this.deleteReturning(
      this.t.windows,
      'building_id AS "buildingId", room_id AS "roomId", equipment_id AS "equipmentId"',
      id,
      tx,
    );
  }

  /** The target and what holds it; null when the target does not exist. */
  async placeOf(target: WindowTarget): Promise<Place | null> {
    const { buildingId, roomId, equipmentId } = target;
    const [row] = equipmentId
      ? await queryRows<Place>(
          this.dataSource,
          `SELECT r.building_id AS "buildingId", e.room_id AS "roomId", e.id AS "equipmentId"
             FROM ${this.t.equipment} e JOIN ${this.t.rooms} r ON r.id = e.room_id WHERE e.id = $1`,
          [equipmentId],
        )
      : roomId
        ? await queryRows<Place>(
            this.dataSource,
            `SELECT building_id AS "buildingId", id AS "roomId", NULL AS "equipmentId"
               FROM ${this.t.rooms} WHERE id = $1`,
            [roomId],
          )
        : await queryRows<Place>(
            this.dataSource,
            `SELECT id AS "buildingId", NULL AS "roomId", NULL AS "equipmentId"
               FROM ${this.t.buildings} WHERE id = $1`,
            [buildingId],
          );
    return row ?? null;
  }

  /**
   * The windows in force at `at` over each of the equipment (its own, its room's, its
   * building's), in one query: a row per covered equipment and window, by start.
   */
  async covering(
    equipmentIds: readonly string[],
    at: Date,
  ): Promise<(MaintenanceWindow & { coveredId: string })[]> {
    if (equipmentIds.length === 0) return [];
    const rows = await queryRows<WindowRow & { coveredId: string }>(
      this.dataSource,
      `SELECT e.id AS "coveredId", ${columns}
         FROM ${this.t.equipment} e
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         CROSS JOIN LATERAL (${coveringWindowsSql(
           this.t,
           { equipment: 'e.id', room: 'e.room_id', building: 'r.building_id' },
           'w.starts_at <= $2 AND w.ends_at > $2',
         )}) w
         ${this.targetNames()}
        WHERE e.id = ANY($1::uuid[])
        ORDER BY e.id, w.starts_at, w.id`,
      [equipmentIds, at],
    );
    return rows.map(({ coveredId, ...row }) => ({ coveredId, ...toWindow(row) }));
  }
}
