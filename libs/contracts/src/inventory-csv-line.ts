import { z } from 'zod';
import { parseAddressTarget, isAddressError } from './address';
import { limits, optionalText, requiredText, type TextOptions } from './common';
import { csvCellValue } from './csv';
import { type ImportRow, type InventoryCsvColumn, inventoryCsvColumns } from './inventory-csv';
import { type ImportError, importError } from './inventory-import';
import { probeTypes, type ProbeType } from './device-health';
import { equipmentStatuses } from './equipment';
import { picturePath } from './media';
import { roomTypes } from './rooms';

/*
 * A data line of the inventory CSV import, checked cell by cell, by itself: what the line says
 * about the inventory is the import plan's to judge.
 */

type Cells = Partial<Record<InventoryCsvColumn, string>>;
type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const quoted = (v: string) => `"${v.length > 60 ? `${v.slice(0, 60)}…` : v}"`;

function bySchema<T>(schema: z.ZodType<T>, value: string): Checked<T> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: parsed.error.issues[0].message };
}

/** Schemas are built once: building one is far dearer than using it, and a file has 50,000 lines. */
const required = (max: number, label: string) => {
  const schema = requiredText(max, label);
  return (v: string) => bySchema(schema, v);
};
const text = (max: number, label: string, options?: TextOptions) => {
  const schema = optionalText(max, label, options);
  return (v: string) => bySchema(schema, v);
};
const picture = (field: Parameters<typeof picturePath>[0]) => {
  const schema = picturePath(field);
  return (v: string) => bySchema(schema, v);
};

const roomTypeByLowerCase = new Map(roomTypes.map((t) => [t.toLowerCase(), t]));
const flags: Record<string, 0 | 1> = { '1': 1, yes: 1, true: 1, y: 1, '0': 0, no: 0, false: 0, n: 0 };

/** How each column's non-empty text becomes its value, or why it cannot. */
const cellParsers: { [C in InventoryCsvColumn]: (v: string) => Checked<unknown> } = {
  building_name: required(limits.name, 'Building name'),
  building_description: text(limits.description, 'Building description', { multiline: true }),
  building_image_url: picture('imageUrl'),
  room_name: required(limits.name, 'Room name'),
  room_type: (v) => {
    const type = roomTypeByLowerCase.get(v.toLowerCase());
    return type
      ? { ok: true, value: type }
      : { ok: false, message: `${quoted(v)} is not a room type. Use one of: ${roomTypes.join(', ')}.` };
  },
  room_floor: required(32, 'Floor'),
  room_capacity: (v) => {
    if (!/^\d+$/.test(v))
      return {
        ok: false,
        message: `${quoted(v)} is not a capacity. Give the room's seats as a whole number, 0 or more.`,
      };
    const n = Number(v);
    return n > 100_000
      ? { ok: false, message: `${v} seats is more than a room holds (at most 100000).` }
      : { ok: true, value: n };
  },
  room_size: text(limits.shortText, 'Room size'),
  room_ada_accessible: (v) => {
    const flag = flags[v.toLowerCase()];
    return flag === undefined
      ? { ok: false, message: `${quoted(v)} is not yes or no. Write 1 (accessible) or 0 (not accessible).` }
      : { ok: true, value: flag };
  },
  room_image_url: picture('imageUrl'),
  room_wiring_diagram_url: picture('wiringDiagramUrl'),
  room_seating_layout_url: picture('seatingLayoutUrl'),
  equipment_name: required(limits.name, 'Equipment name'),
  equipment_type: text(limits.shortText, 'Equipment type'),
  equipment_model: text(limits.shortText, 'Model'),
  equipment_serial_number: text(limits.shortText, 'Serial number'),
  equipment_ip_address: (v) => {
    const target = parseAddressTarget(v);
    return isAddressError(target)
      ? { ok: false, message: `${quoted(v)} is not an address the monitor can ping: ${target.error}` }
      : { ok: true, value: target.text };
  },
  equipment_status: (v) => {
    const status = equipmentStatuses.find((s) => s === v.toLowerCase());
    return status
      ? { ok: true, value: status }
      : {
          ok: false,
          message: `${quoted(v)} is not an equipment status. Use one of: ${equipmentStatuses.join(', ')}, or leave it empty.`,
        };
  },
  equipment_notes: text(limits.notes, 'Notes', { multiline: true }),
  equipment_image_url: picture('imageUrl'),
  equipment_probe_type: (v) => {
    const type = probeTypes.find((t) => t === v.toLowerCase());
    return type
      ? { ok: true, value: type satisfies ProbeType }
      : {
          ok: false,
          message: `${quoted(v)} is not a probe. Use one of: ${probeTypes.join(', ')}, or leave it empty.`,
        };
  },
  equipment_probe_port: (v) => {
    const n = Number(v);
    return /^\d+$/.test(v) && n >= 1 && n <= 65_535
      ? { ok: true, value: n }
      : {
          ok: false,
          message: `${quoted(v)} is not a port. Give a whole number from 1 to 65535, or leave it empty.`,
        };
  },
};

/** The columns of a room or an equipment other than its name. */
const detailsOf = (prefix: 'room_' | 'equipment_') =>
  inventoryCsvColumns.filter((c) => c.startsWith(prefix) && c !== `${prefix}name`);
const roomOnly = detailsOf('room_');
const equipmentOnly = detailsOf('equipment_');

/** A building, room and equipment name each need the ones above them. */
function missingNames(raw: Cells, line: number): ImportError[] {
  const errors: ImportError[] = [];
  const given = (cs: InventoryCsvColumn[]) => cs.find((c) => raw[c]);
  if (!raw.building_name) errors.push(importError(line, 'building_name', 'Every line names its building.'));
  if (!raw.room_name) {
    const stray = given([...roomOnly, 'equipment_name', ...equipmentOnly]);
    if (stray)
      errors.push(
        importError(line, 'room_name', `The line has ${stray} but no room. Name the room it belongs to.`),
      );
  } else if (!raw.equipment_name) {
    const stray = given(equipmentOnly);
    if (stray)
      errors.push(
        importError(
          line,
          'equipment_name',
          `The line has ${stray} but no equipment name. Name the equipment.`,
        ),
      );
  }
  return errors;
}

/** The row of a checked line: `values` holds undefined for an absent column, null for an empty cell. */
function rowOf(line: number, raw: Cells, values: Partial<Record<InventoryCsvColumn, unknown>>): ImportRow {
  const v = values as Record<InventoryCsvColumn, never>;
  return {
    line,
    building: {
      name: v.building_name,
      description: v.building_description,
      imageUrl: v.building_image_url,
    },
    room: raw.room_name
      ? {
          name: v.room_name,
          type: v.room_type,
          floor: v.room_floor,
          capacity: v.room_capacity,
          roomSize: v.room_size,
          isAdaAccessible: v.room_ada_accessible,
          imageUrl: v.room_image_url,
          wiringDiagramUrl: v.room_wiring_diagram_url,
          seatingLayoutUrl: v.room_seating_layout_url,
        }
      : null,
    equipment: raw.equipment_name
      ? {
          name: v.equipment_name,
          type: v.equipment_type,
          model: v.equipment_model,
          serialNumber: v.equipment_serial_number,
          ipAddress: v.equipment_ip_address,
          status: v.equipment_status,
          notes: v.equipment_notes,
          imageUrl: v.equipment_image_url,
          probeType: v.equipment_probe_type,
          probePort: v.equipment_probe_port,
        }
      : null,
  };
}

/**
 * One data line, checked by itself (what it says about the inventory is the plan's to judge).
 * `cells` are the line's cells in the header's column order. An empty line is null.
 */
export function parseImportLine(
  columns: readonly InventoryCsvColumn[],
  cells: readonly string[],
  line: number,
): { row: ImportRow | null; errors: ImportError[] } {
  const errors: ImportError[] = [];
  if (cells.length > columns.length && cells.slice(columns.length).some((c) => c.trim() !== '')) {
    errors.push(
      importError(
        line,
        null,
        `The line has ${cells.length} cells but the header names ${columns.length} columns. Remove the extra cells or add their column to the header.`,
      ),
    );
    return { row: null, errors };
  }
  const raw: Cells = {};
  columns.forEach((c, i) => {
    raw[c] = csvCellValue(cells[i] ?? '').trim();
  });
  if (Object.values(raw).every((v) => v === '')) return { row: null, errors };

  // absent column: undefined; empty cell: null; else the parsed value
  const values: Partial<Record<InventoryCsvColumn, unknown>> = {};
  for (const c of columns) {
    const v = raw[c]!;
    if (v === '') {
      values[c] = null;
      continue;
    }
    const checked = cellParsers[c](v);
    if (checked.ok) values[c] = checked.value;
    else errors.push(importError(line, c, checked.message));
  }
  errors.push(...missingNames(raw, line));
  if (errors.length) return { row: null, errors };

  return { row: rowOf(line, raw, values), errors };
}
