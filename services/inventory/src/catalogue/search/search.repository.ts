import { type BuildingHit, type EquipmentHit, type RoomHit } from '@cm/contracts';
import { queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type Tables, tablesOf } from '../../shared/database/sql';
import { searchText } from '../../migrations/1764100000000-search-indexes';
import { healthSearchText } from '../../migrations/1764900000000-device-health';

/**
 * `LIKE` pattern for "contains `text`" in lower case: its own %, _ and \ match themselves. Lower-cased
 * here rather than in SQL, so that the planner sees the pattern itself and can judge how many rows
 * it will match.
 */
export const containsPattern = (text: string) =>
  `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Matches read before ordering by name. A fragment found in a quarter of a large campus would
 * otherwise have every match read and sorted to show 20; past this many the answer is 20 of the
 * first matches found (by name), and says there are more.
 */
const CANDIDATES = 500;

/**
 * Each kind is read by its trigram index (see the migrations; equipment also by what its probe
 * read: its firmware and the serial number it reports), matches by name. Each query asks
 * for one row more than it shows, so the caller knows whether there are more.
 */
@Injectable()
export class SearchRepository {
  private readonly t: Tables;

  constructor(private readonly dataSource: DataSource) {
    this.t = tablesOf(dataSource);
  }

  buildings(pattern: string, limit: number): Promise<BuildingHit[]> {
    return queryRows<BuildingHit>(
      this.dataSource,
      `SELECT id, name, description
         FROM (SELECT id, name, description FROM ${this.t.buildings}
                WHERE ${searchText.buildings} LIKE $1 LIMIT ${CANDIDATES}) b
        ORDER BY lower(name), id LIMIT $2`,
      [pattern, limit],
    );
  }

  rooms(pattern: string, limit: number): Promise<RoomHit[]> {
    return queryRows<RoomHit>(
      this.dataSource,
      `SELECT r.id, r.name, r.floor, b.id AS "buildingId", b.name AS "buildingName",
              b.name || ' > ' || r.name AS path
         FROM (SELECT * FROM (SELECT id, name, floor, building_id FROM ${this.t.rooms}
                               WHERE ${searchText.rooms} LIKE $1 LIMIT ${CANDIDATES}) c
                ORDER BY lower(name), id LIMIT $2) r
         JOIN ${this.t.buildings} b ON b.id = r.building_id
        ORDER BY lower(r.name), r.id`,
      [pattern, limit],
    );
  }

  equipment(pattern: string, limit: number): Promise<EquipmentHit[]> {
    return queryRows<EquipmentHit>(
      this.dataSource,
      `SELECT e.id, e.name, e.model, e.serial_number AS "serialNumber", e.ip_address AS "ipAddress",
              e.status, e.room_id AS "roomId", b.id AS "buildingId", b.name || ' > ' || r.name AS path
         FROM (SELECT * FROM (SELECT id, name, model, serial_number, ip_address, status, room_id
                                FROM ${this.t.equipment}
                               WHERE ${searchText.equipment} LIKE $1
                               UNION
                              SELECT e.id, e.name, e.model, e.serial_number, e.ip_address, e.status, e.room_id
                                FROM ${this.t.health} h JOIN ${this.t.equipment} e ON e.id = h.equipment_id
                               WHERE ${healthSearchText} LIKE $1
                               LIMIT ${CANDIDATES}) c
                ORDER BY lower(name), id LIMIT $2) e
         JOIN ${this.t.rooms} r ON r.id = e.room_id
         JOIN ${this.t.buildings} b ON b.id = r.building_id
        ORDER BY lower(e.name), e.id`,
      [pattern, limit],
    );
  }
}
