import { randomUUID } from 'node:crypto';
import {
  type ImportChange,
  IMPORT_CHANGES_BYTES,
  type ImportCounts,
  type ImportError,
  importError,
  type ImportRow,
  type InventoryCsvColumn,
  roomTypes,
} from '@cm/contracts';

export interface BuildingRecord {
  id: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
}

export interface RoomRecord {
  id: string;
  buildingId: string;
  name: string;
  type: string;
  floor: string;
  capacity: number;
  roomSize: string | null;
  isAdaAccessible: 0 | 1;
  imageUrl: string | null;
  wiringDiagramUrl: string | null;
  seatingLayoutUrl: string | null;
}

export interface EquipmentRecord {
  id: string;
  roomId: string;
  name: string;
  model: string | null;
  serialNumber: string | null;
  ipAddress: string | null;
  /** Set when the equipment is created; an import never changes the status of existing equipment. */
  status: string;
  notes: string | null;
  imageUrl: string | null;
  type: string | null;
}

/** The inventory as it stands, as the plan needs it. */
export interface CurrentInventory {
  buildings: BuildingRecord[];
  rooms: RoomRecord[];
  equipment: EquipmentRecord[];
}

/** What inventory allows of addresses (its configuration), for the plan to judge the file's. */
export interface AddressRules {
  /** Why the monitor may not ping this address (outside the allowed networks, a range too wide), or null. */
  problem(ipAddress: string): string | null;
  /** How many addresses it counts for (a range, each of its addresses). */
  count(ipAddress: string): number;
  max: number;
}

export interface Changes<T> {
  create: T[];
  update: T[];
  unchanged: number;
}

export interface ImportPlan {
  buildings: Changes<BuildingRecord>;
  rooms: Changes<RoomRecord>;
  equipment: Changes<EquipmentRecord>;
  errors: ImportError[];
}

export const countsOf = (c: Changes<unknown>): ImportCounts => ({
  create: c.create.length,
  update: c.update.length,
  unchanged: c.unchanged,
});

/** A field as the file gives it across the lines of one building or room, with the line that gave it. */
interface Given {
  value: unknown;
  line: number;
}

/**
 * A building's or a room's fields from all its lines: the values may be given on any one of them,
 * and an empty cell keeps what is stored (a line written to add one device must not wipe its
 * room's details); two different values are an error.
 */
class Merged<F extends string> {
  readonly fields = new Map<F, Given>();
  constructor(
    readonly firstLine: number,
    readonly what: string,
  ) {}

  add(
    line: number,
    values: Partial<Record<F, unknown>>,
    columnOf: Record<F, InventoryCsvColumn>,
    errors: ImportError[],
  ) {
    for (const [field, value] of Object.entries(values) as [F, unknown][]) {
      if (value === undefined || value === null) continue;
      const had = this.fields.get(field);
      if (!had) this.fields.set(field, { value, line });
      else if (had.value !== value)
        errors.push(
          importError(
            line,
            columnOf[field],
            `"${String(value)}" differs from "${String(had.value)}" on line ${had.line} for the same ${this.what}. Give its value once, or the same on every line.`,
          ),
        );
    }
  }

  /** The value a line gives, or undefined (what is stored is kept). */
  get<T>(field: F): T | undefined {
    return this.fields.get(field)?.value as T | undefined;
  }
}

type BuildingField = 'description' | 'imageUrl';
type RoomField =
  | 'type'
  | 'floor'
  | 'capacity'
  | 'roomSize'
  | 'isAdaAccessible'
  | 'imageUrl'
  | 'wiringDiagramUrl'
  | 'seatingLayoutUrl';

const buildingColumns: Record<BuildingField, InventoryCsvColumn> = {
  description: 'building_description',
  imageUrl: 'building_image_url',
};
const roomColumns: Record<RoomField, InventoryCsvColumn> = {
  type: 'room_type',
  floor: 'room_floor',
  capacity: 'room_capacity',
  roomSize: 'room_size',
  isAdaAccessible: 'room_ada_accessible',
  imageUrl: 'room_image_url',
  wiringDiagramUrl: 'room_wiring_diagram_url',
  seatingLayoutUrl: 'room_seating_layout_url',
};

const key = (...parts: string[]) => parts.join('\u0000');

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** `value` when the file gives one (null included), else what is stored. */
const pick = <T>(given: T | null | undefined, current: T): T | null =>
  given === undefined ? current : given;

function sameRecord<T extends object>(a: T, b: T): boolean {
  return (Object.keys(a) as (keyof T)[]).every((k) => a[k] === b[k]);
}

/**
 * What importing `rows` into `current` would do: buildings, rooms and equipment to create and to
 * update (with their values after the import), how many stay as they are, and every error. Matches
 * by natural keys: a building by name; a room by name within its building; equipment by serial
 * number, else by name within its room. The same plan is previewed and applied.
 */
export function planImport(rows: ImportRow[], current: CurrentInventory, rules: AddressRules): ImportPlan {
  const errors: ImportError[] = [];

  // The file's buildings and rooms, each from all of its lines.
  const fileBuildings = new Map<string, Merged<BuildingField>>();
  const fileRooms = new Map<string, { building: string; name: string; merged: Merged<RoomField> }>();
  for (const row of rows) {
    const b = row.building;
    let building = fileBuildings.get(b.name);
    if (!building) fileBuildings.set(b.name, (building = new Merged(row.line, `building "${b.name}"`)));
    building.add(row.line, { description: b.description, imageUrl: b.imageUrl }, buildingColumns, errors);
    if (!row.room) continue;
    const { name, ...fields } = row.room;
    const k = key(b.name, name);
    let room = fileRooms.get(k);
    if (!room) {
      room = { building: b.name, name, merged: new Merged(row.line, `room "${name}" of "${b.name}"`) };
      fileRooms.set(k, room);
    }
    room.merged.add(row.line, fields, roomColumns, errors);
  }

  const plan: ImportPlan = {
    buildings: { create: [], update: [], unchanged: 0 },
    rooms: { create: [], update: [], unchanged: 0 },
    equipment: { create: [], update: [], unchanged: 0 },
    errors,
  };

  // Buildings by name.
  const buildingsByName = groupBy(current.buildings, (b) => b.name);
  const buildingIds = new Map<string, string>();
  for (const [name, merged] of fileBuildings) {
    const found = buildingsByName.get(name) ?? [];
    if (found.length > 1) {
      errors.push(
        importError(
          merged.firstLine,
          'building_name',
          `${found.length} buildings are named "${name}". Rename all but one of them in the app so that the file names one building.`,
        ),
      );
      continue;
    }
    const was = found[0];
    const next: BuildingRecord = {
      id: was?.id ?? randomUUID(),
      name,
      description: pick(merged.get<string>('description'), was?.description ?? null),
      imageUrl: pick(merged.get<string>('imageUrl'), was?.imageUrl ?? null),
    };
    buildingIds.set(name, next.id);
    if (!was) plan.buildings.create.push(next);
    else if (sameRecord(was, next)) plan.buildings.unchanged++;
    else plan.buildings.update.push(next);
  }

  // Rooms by name within their building.
  const roomsByKey = groupBy(current.rooms, (r) => key(r.buildingId, r.name));
  const roomIds = new Map<string, string>();
  for (const [k, { building, name, merged }] of fileRooms) {
    const buildingId = buildingIds.get(building);
    if (!buildingId) continue;
    const found = roomsByKey.get(key(buildingId, name)) ?? [];
    if (found.length > 1) {
      errors.push(
        importError(
          merged.firstLine,
          'room_name',
          `${found.length} rooms of "${building}" are named "${name}". Rename all but one of them in the app so that the file names one room.`,
        ),
      );
      continue;
    }
    const was = found[0];
    const type = merged.get<string>('type');
    const floor = merged.get<string>('floor');
    if (!was && (!type || !floor)) {
      const column = !type ? 'room_type' : 'room_floor';
      const need = !type ? `a type (one of: ${roomTypes.join(', ')})` : 'a floor (such as 1, 2, LL, B1)';
      errors.push(
        importError(merged.firstLine, column, `Room "${name}" of "${building}" is new and needs ${need}.`),
      );
      continue;
    }
    // Type, floor, capacity and accessibility are required: an empty cell keeps what is stored.
    const next: RoomRecord = {
      id: was?.id ?? randomUUID(),
      buildingId,
      name,
      type: type ?? was!.type,
      floor: floor ?? was!.floor,
      capacity: merged.get<number>('capacity') ?? was?.capacity ?? 0,
      roomSize: pick(merged.get<string>('roomSize'), was?.roomSize ?? null),
      isAdaAccessible: merged.get<0 | 1>('isAdaAccessible') ?? was?.isAdaAccessible ?? 1,
      imageUrl: pick(merged.get<string>('imageUrl'), was?.imageUrl ?? null),
      wiringDiagramUrl: pick(merged.get<string>('wiringDiagramUrl'), was?.wiringDiagramUrl ?? null),
      seatingLayoutUrl: pick(merged.get<string>('seatingLayoutUrl'), was?.seatingLayoutUrl ?? null),
    };
    roomIds.set(k, next.id);
    if (!was) plan.rooms.create.push(next);
    else if (sameRecord(was, next)) plan.rooms.unchanged++;
    else plan.rooms.update.push(next);
  }

  // Equipment by serial number, else by name within its room.
  const bySerial = groupBy(
    current.equipment.filter((e) => e.serialNumber),
    (e) => e.serialNumber!,
  );
  const byRoomAndName = groupBy(current.equipment, (e) => key(e.roomId, e.name));
  const fileKeys = new Map<string, number>();
  const matched = new Map<string, number>();
  const addressesBefore = new Map(current.equipment.map((e) => [e.id, e.ipAddress]));
  const addressesAfter = new Map<string, string | null>();
  for (const row of rows) {
    const e = row.equipment;
    if (!e || !row.room) continue;
    const roomId = roomIds.get(key(row.building.name, row.room.name));
    if (!roomId) continue;
    const fileKey = e.serialNumber ? `serial ${e.serialNumber}` : key(roomId, e.name);
    const twin = fileKeys.get(fileKey);
    if (twin !== undefined) {
      const what = e.serialNumber
        ? `serial number "${e.serialNumber}"`
        : `"${e.name}" in room "${row.room.name}" of "${row.building.name}"`;
      errors.push(
        importError(
          row.line,
          e.serialNumber ? 'equipment_serial_number' : 'equipment_name',
          `The same equipment (${what}) as on line ${twin}. Give each equipment one line: remove one of them, or tell them apart by serial number.`,
        ),
      );
      continue;
    }
    fileKeys.set(fileKey, row.line);

    let found = e.serialNumber ? (bySerial.get(e.serialNumber) ?? []) : [];
    if (found.length > 1) {
      errors.push(
        importError(
          row.line,
          'equipment_serial_number',
          `${found.length} equipment have the serial number "${e.serialNumber}". Correct their serial numbers in the app so that the file names one of them.`,
        ),
      );
      continue;
    }
    if (found.length === 0) {
      const named = byRoomAndName.get(key(roomId, e.name)) ?? [];
      // A serial number tells equipment apart: one with a different serial number is another device.
      found = e.serialNumber ? named.filter((n) => !n.serialNumber) : named;
      if (found.length > 1) {
        errors.push(
          importError(
            row.line,
            'equipment_name',
            `${found.length} equipment in room "${row.room.name}" of "${row.building.name}" are named "${e.name}". Give this line a serial number, or rename them in the app.`,
          ),
        );
        continue;
      }
    }
    const was = found[0];
    if (was) {
      const other = matched.get(was.id);
      if (other !== undefined) {
        errors.push(
          importError(
            row.line,
            'equipment_name',
            `This line and line ${other} both name the equipment "${was.name}". Give each equipment one line.`,
          ),
        );
        continue;
      }
      matched.set(was.id, row.line);
    }
    const next: EquipmentRecord = {
      id: was?.id ?? randomUUID(),
      roomId,
      name: e.name,
      model: pick(e.model, was?.model ?? null),
      serialNumber: pick(e.serialNumber, was?.serialNumber ?? null),
      ipAddress: pick(e.ipAddress, was?.ipAddress ?? null),
      status: was ? was.status : (e.status ?? 'active'),
      notes: pick(e.notes, was?.notes ?? null),
      imageUrl: pick(e.imageUrl, was?.imageUrl ?? null),
      type: pick(e.type, was?.type ?? null),
    };
    if (next.ipAddress && next.ipAddress !== was?.ipAddress) {
      const problem = rules.problem(next.ipAddress);
      if (problem) {
        errors.push(importError(row.line, 'equipment_ip_address', problem));
        continue;
      }
    }
    addressesAfter.set(next.id, next.ipAddress);
    if (!was) plan.equipment.create.push(next);
    else if (sameRecord(was, next)) plan.equipment.unchanged++;
    else plan.equipment.update.push(next);
  }

  const total = [...new Map([...addressesBefore, ...addressesAfter]).values()].reduce(
    (sum, ip) => sum + (ip ? rules.count(ip) : 0),
    0,
  );
  if (total > rules.max) {
    const n = (v: number) => v.toLocaleString('en-US');
    errors.push(
      importError(
        null,
        'equipment_ip_address',
        `After this import the campus would have ${n(total)} monitored addresses; at most ${n(rules.max)} may be monitored. Import fewer addresses, or ask an administrator to raise INVENTORY_MAX_MONITORED_ADDRESSES.`,
      ),
    );
  }
  errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return plan;
}

/**
 * What an applied plan created and changed, each record with its fields before and after (an
 * update: only those that changed), as many as fit in IMPORT_CHANGES_BYTES of JSON.
 */
export function changesOf(
  plan: ImportPlan,
  current: CurrentInventory,
): { changes: ImportChange[]; changesNotListed: number } {
  const changes: ImportChange[] = [];
  let bytes = 0;
  let changesNotListed = 0;
  const add = (change: ImportChange) => {
    const size = JSON.stringify(change).length;
    if (changesNotListed > 0 || bytes + size > IMPORT_CHANGES_BYTES) changesNotListed++;
    else {
      changes.push(change);
      bytes += size;
    }
  };
  const record = <T extends { id: string }>(
    entityType: ImportChange['entityType'],
    changed: Changes<T>,
    existing: T[],
  ) => {
    for (const { id, ...after } of changed.create)
      add({ entityType, action: 'create', id, before: null, after });
    const byId = new Map(existing.map((r) => [r.id, r]));
    for (const next of changed.update) {
      const was = byId.get(next.id) as Record<string, unknown> | undefined;
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(next)) {
        if (field === 'id' || was?.[field] === value) continue;
        before[field] = was?.[field] ?? null;
        after[field] = value;
      }
      add({ entityType, action: 'update', id: next.id, before, after });
    }
  };
  record('building', plan.buildings, current.buildings);
  record('room', plan.rooms, current.rooms);
  record('equipment', plan.equipment, current.equipment);
  return { changes, changesNotListed };
}
