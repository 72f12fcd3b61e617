import { type ExportPage, type ImportRow } from '@cm/contracts';
import { execute, queryChanged, queryRows } from '@cm/platform';
import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { TableRepository } from '../../shared/database/table.repository';
import {
  type BuildingRecord,
  type CurrentInventory,
  type EquipmentRecord,
  type ImportPlan,
  importedProbe,
  type RoomRecord,
} from './import-records';

/** Batches of an import that did not run within this time are given up. */
const STAGED_FOR_MINUTES = 60;

/** Every column of the export, from a building, its room (if any) and that room's equipment (if any). */
const exportColumns = `
  b.name AS building_name, b.description AS building_description, b.image_url AS building_image_url,
  r.name AS room_name, r.type AS room_type, r.floor AS room_floor, r.capacity::text AS room_capacity,
  r.room_size, r.is_ada_accessible::text AS room_ada_accessible, r.image_url AS room_image_url,
  r.wiring_diagram_url AS room_wiring_diagram_url, r.seating_layout_url AS room_seating_layout_url,
  e.name AS equipment_name, e.type AS equipment_type, e.model AS equipment_model,
  e.serial_number AS equipment_serial_number, e.ip_address AS equipment_ip_address,
  e.status AS equipment_status, e.notes AS equipment_notes, e.image_url AS equipment_image_url,
  e.probe->>'type' AS equipment_probe_type, e.probe->>'port' AS equipment_probe_port`;

/**
 * The export's order (building, room, equipment, each by name then id), which its cursor follows.
 * Ids compare as uuids (text would compare by collation); a building without rooms or a room
 * without equipment sorts first with an empty name and the nil uuid.
 */
const nil = `'00000000-0000-0000-0000-000000000000'::uuid`;
const sortKey = `lower(b.name), b.id, coalesce(lower(r.name), ''), coalesce(r.id, ${nil}),
  coalesce(lower(e.name), ''), coalesce(e.id, ${nil})`;

const buildingFields = `id uuid, name text, description text, "imageUrl" text`;
const roomFields = `id uuid, "buildingId" uuid, name text, type text, floor text, capacity int, "roomSize" text,
  "isAdaAccessible" smallint, "imageUrl" text, "wiringDiagramUrl" text, "seatingLayoutUrl" text`;
const equipmentFields = `id uuid, "roomId" uuid, name text, model text, "serialNumber" text, "ipAddress" text,
  status text, notes text, "imageUrl" text, type text, "probeType" text, "probePort" int, "probeSettings" jsonb`;

/**
 * A probe of the same type keeps its other settings and its secrets, with the file's port; a
 * probe of another type starts from its defaults, without the secrets of the one before.
 */
const probeUpdate = `
  probe = CASE WHEN e.probe->>'type' = x."probeType"
               THEN (e.probe - 'port') || jsonb_strip_nulls(jsonb_build_object('port', x."probePort"))
               ELSE x."probeSettings" END,
  probe_secrets = CASE WHEN e.probe->>'type' = x."probeType" THEN e.probe_secrets ELSE '{}'::jsonb END`;

@Injectable()
export class ImportRepository extends TableRepository {
  // Its own constructor, so that the injector sees the parameter's type.
  constructor(dataSource: DataSource) {
    super(dataSource);
  }

  /** A page of the export after `after` (a sort key), with the sort key of its last line. */
  async exportPage(after: string[] | undefined, limit: number): Promise<ExportPage> {
    // The first condition repeats the cursor's building part alone, so that the buildings' name index
    // starts the scan at the cursor: each page reads on from there instead of sorting the campus.
    const rows = await queryRows<ExportPage['rows'][number] & { k: string[] }>(
      this.dataSource,
      `SELECT ${exportColumns},
              ARRAY[lower(b.name), b.id::text, coalesce(lower(r.name), ''), coalesce(r.id, ${nil})::text,
                    coalesce(lower(e.name), ''), coalesce(e.id, ${nil})::text] AS k
         FROM ${this.t.buildings} b
         LEFT JOIN ${this.t.rooms} r ON r.building_id = b.id
         LEFT JOIN ${this.t.equipment} e ON e.room_id = r.id
        WHERE $1::text[] IS NULL
           OR ((lower(b.name), b.id) >= ($1[1], $1[2]::uuid)
               AND (${sortKey}) > ($1[1], $1[2]::uuid, $1[3], $1[4]::uuid, $1[5], $1[6]::uuid))
        ORDER BY ${sortKey}
        LIMIT $2`,
      [after ?? null, limit],
    );
    const last = rows.at(-1);
    return {
      rows: rows.map(({ k: _k, ...row }) => row),
      nextCursor: rows.length === limit && last ? last.k : null,
    };
  }

  async stage(importId: string, seq: number, rows: ImportRow[]): Promise<void> {
    await execute(
      this.dataSource,
      `DELETE FROM ${this.t.importBatches} WHERE created_at < now() - make_interval(mins => $1)`,
      [STAGED_FOR_MINUTES],
    );
    await execute(
      this.dataSource,
      `INSERT INTO ${this.t.importBatches} (import_id, seq, rows) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (import_id, seq) DO UPDATE SET rows = excluded.rows`,
      [importId, seq, JSON.stringify(rows)],
    );
  }

  /** The staged lines of an import, in order; they are deleted as they are read (an import runs once). */
  async takeStaged(importId: string): Promise<ImportRow[]> {
    const { rows: batches } = await queryChanged<{ seq: number; rows: ImportRow[] }>(
      this.dataSource,
      `DELETE FROM ${this.t.importBatches} WHERE import_id = $1 RETURNING seq, rows`,
      [importId],
    );
    return batches.sort((a, b) => a.seq - b.seq).flatMap((b) => b.rows);
  }

  /** Everything the plan matches against, read in `manager`'s transaction when given. */
  async current(manager: EntityManager = this.dataSource.manager): Promise<CurrentInventory> {
    const [buildings, rooms, equipment] = [
      await queryRows<BuildingRecord>(
        manager,
        `SELECT id, name, description, image_url AS "imageUrl" FROM ${this.t.buildings}`,
      ),
      await queryRows<RoomRecord>(
        manager,
        `SELECT id, building_id AS "buildingId", name, type, floor, capacity, room_size AS "roomSize",
                is_ada_accessible AS "isAdaAccessible", image_url AS "imageUrl",
                wiring_diagram_url AS "wiringDiagramUrl", seating_layout_url AS "seatingLayoutUrl"
           FROM ${this.t.rooms}`,
      ),
      await queryRows<EquipmentRecord>(
        manager,
        `SELECT id, room_id AS "roomId", name, model, serial_number AS "serialNumber", ip_address AS "ipAddress",
                status, notes, image_url AS "imageUrl", type, probe->>'type' AS "probeType",
                (probe->>'port')::int AS "probePort"
           FROM ${this.t.equipment}`,
      ),
    ];
    return { buildings, rooms, equipment };
  }

  /**
   * Runs `work` in one transaction that holds the campus's address count (the lock equipment
   * writes take) and the import lock, so that neither another import nor an address added
   * meanwhile can make the plan it builds wrong.
   */
  override transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await execute(manager, 'SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.t.equipment}.addresses`]);
      return work(manager);
    });
  }

  /** Writes the plan: a statement per table and kind, each for all of its records. */
  async apply(manager: EntityManager, plan: ImportPlan): Promise<void> {
    const json = (records: object[]) => JSON.stringify(records);
    const withProbes = (records: EquipmentRecord[]) =>
      json(records.map((r) => ({ ...r, probeSettings: importedProbe(r) })));
    const { buildings, rooms, equipment } = plan;
    if (buildings.create.length)
      await execute(
        manager,
        `INSERT INTO ${this.t.buildings} (id, name, description, image_url)
         SELECT id, name, description, "imageUrl" FROM jsonb_to_recordset($1::jsonb) AS x(${buildingFields})`,
        [json(buildings.create)],
      );
    if (buildings.update.length)
      await execute(
        manager,
        `UPDATE ${this.t.buildings} b SET description = x.description, image_url = x."imageUrl", updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS x(${buildingFields}) WHERE b.id = x.id`,
        [json(buildings.update)],
      );
    if (rooms.create.length)
      await execute(
        manager,
        `INSERT INTO ${this.t.rooms} (id, building_id, name, type, floor, capacity, room_size, is_ada_accessible,
                image_url, wiring_diagram_url, seating_layout_url)
         SELECT id, "buildingId", name, type, floor, capacity, "roomSize", "isAdaAccessible", "imageUrl",
                "wiringDiagramUrl", "seatingLayoutUrl"
           FROM jsonb_to_recordset($1::jsonb) AS x(${roomFields})`,
        [json(rooms.create)],
      );
    if (rooms.update.length)
      await execute(
        manager,
        `UPDATE ${this.t.rooms} r SET type = x.type, floor = x.floor, capacity = x.capacity, room_size = x."roomSize",
                is_ada_accessible = x."isAdaAccessible", image_url = x."imageUrl",
                wiring_diagram_url = x."wiringDiagramUrl", seating_layout_url = x."seatingLayoutUrl", updated_at = now()
           FROM jsonb_to_recordset($1::jsonb) AS x(${roomFields}) WHERE r.id = x.id`,
        [json(rooms.update)],
      );
    // The equipment triggers write the monitor's outbox events (and the state rows) per row.
    if (equipment.create.length)
      await execute(
        manager,
        `INSERT INTO ${this.t.equipment} (id, room_id, name, model, serial_number, ip_address, status, notes,
                image_url, type, probe)
         SELECT id, "roomId", name, model, "serialNumber", "ipAddress", status, notes, "imageUrl", type, "probeSettings"
           FROM jsonb_to_recordset($1::jsonb) AS x(${equipmentFields})`,
        [withProbes(equipment.create)],
      );
    if (equipment.update.length)
      await execute(
        manager,
        `UPDATE ${this.t.equipment} e SET room_id = x."roomId", name = x.name, model = x.model,
                serial_number = x."serialNumber", ip_address = x."ipAddress", notes = x.notes,
                image_url = x."imageUrl", type = x.type, updated_at = now(),
                ${probeUpdate}
           FROM jsonb_to_recordset($1::jsonb) AS x(${equipmentFields}) WHERE e.id = x.id`,
        [withProbes(equipment.update)],
      );
  }
}
