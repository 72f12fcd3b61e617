import { type ImportError, importError, type ImportRow, type InventoryCsvColumn } from '@cm/contracts';
import { key } from './import-records';

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
export class Merged<F extends string> {
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

export type BuildingField = 'description' | 'imageUrl';
export type RoomField =
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

export interface FileRoom {
  building: string;
  name: string;
  merged: Merged<RoomField>;
}

/** The file's buildings (by name) and rooms (by building and name), each from all of its lines. */
export function fileRecordsOf(rows: ImportRow[], errors: ImportError[]) {
  const buildings = new Map<string, Merged<BuildingField>>();
  const rooms = new Map<string, FileRoom>();
  for (const row of rows) {
    const b = row.building;
    let building = buildings.get(b.name);
    if (!building) buildings.set(b.name, (building = new Merged(row.line, `building "${b.name}"`)));
    building.add(row.line, { description: b.description, imageUrl: b.imageUrl }, buildingColumns, errors);
    if (!row.room) continue;
    const { name, ...fields } = row.room;
    const k = key(b.name, name);
    let room = rooms.get(k);
    if (!room) {
      room = { building: b.name, name, merged: new Merged(row.line, `room "${name}" of "${b.name}"`) };
      rooms.set(k, room);
    }
    room.merged.add(row.line, fields, roomColumns, errors);
  }
  return { buildings, rooms };
}
