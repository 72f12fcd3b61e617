import { z } from 'zod';
import { parseAddressTarget, isAddressError } from './address';
import { idSchema, limits, optionalText, requiredText, type TextOptions } from './common';
import { csvCellValue, csvLine, datedCsvFileName } from './csv';
import { type ImportError, importError, importErrorSchema, MAX_IMPORT_ROWS } from './inventory-import';
import { probeTypes, type ProbeType } from './device-health';
import { equipmentStatuses } from './equipment';
import { picturePath } from './media';
import { roomTypes } from './rooms';

/**
 * The inventory CSV (`GET /api/inventory/export.csv`, `POST /api/inventory/import`): one line per
 * equipment with its room and building, a line per room without equipment and per building
 * without rooms. Every field of spec section 3 has a column; docs/csv-format.md describes them.
 */
export const inventoryCsvColumns = [
  'building_name',
  'building_description',
  'building_image_url',
  'room_name',
  'room_type',
  'room_floor',
  'room_capacity',
  'room_size',
  'room_ada_accessible',
  'room_image_url',
  'room_wiring_diagram_url',
  'room_seating_layout_url',
  'equipment_name',
  'equipment_type',
  'equipment_model',
  'equipment_serial_number',
  'equipment_ip_address',
  'equipment_status',
  'equipment_notes',
  'equipment_image_url',
  // How its health is read beyond ping (never its credentials, which the file does not carry).
  'equipment_probe_type',
  'equipment_probe_port',
] as const;
export type InventoryCsvColumn = (typeof inventoryCsvColumns)[number];

export const inventoryCsvHeader = csvLine(inventoryCsvColumns);

/** One line of the export: each column's text, null for an empty cell. */
export const exportRowSchema = z.object(
  Object.fromEntries(inventoryCsvColumns.map((c) => [c, z.string().nullable()])) as Record<
    InventoryCsvColumn,
    z.ZodNullable<z.ZodString>
  >,
);
export type ExportRow = z.infer<typeof exportRowSchema>;

export const inventoryCsvLine = (row: ExportRow): string =>
  csvLine(inventoryCsvColumns.map((c) => row[c] ?? ''));

/** Where a page of the export ends: the sort key of its last line (see inventory's export). */
export const exportCursorSchema = z.array(z.string().max(200)).length(6);

export const MAX_EXPORT_PAGE = 1000;

/** gateway → inventory (`inventory.export.page`): the export a page at a time (NATS replies are limited to 1 MB). */
export const exportPageRequestSchema = z.object({
  after: exportCursorSchema.optional(),
  limit: z.number().int().min(1).max(MAX_EXPORT_PAGE).default(500),
});
export const exportPageSchema = z.object({
  rows: z.array(exportRowSchema),
  nextCursor: exportCursorSchema.nullable(),
});
export type ExportPage = z.infer<typeof exportPageSchema>;

/**
 * One line of the file as checked by itself. Building and room fields: a value, null for an
 * empty cell, or absent when the file has no such column (the stored value is kept).
 */
const maybe = <T extends z.ZodType>(schema: T) => schema.nullable().optional();
export const importRowSchema = z.object({
  line: z.number().int().positive(),
  building: z.object({
    name: z.string(),
    description: maybe(z.string()),
    imageUrl: maybe(z.string()),
  }),
  room: z
    .object({
      name: z.string(),
      type: maybe(z.string()),
      floor: maybe(z.string()),
      capacity: maybe(z.number().int()),
      roomSize: maybe(z.string()),
      isAdaAccessible: maybe(z.union([z.literal(0), z.literal(1)])),
      imageUrl: maybe(z.string()),
      wiringDiagramUrl: maybe(z.string()),
      seatingLayoutUrl: maybe(z.string()),
    })
    .nullable(),
  equipment: z
    .object({
      name: z.string(),
      type: maybe(z.string()),
      model: maybe(z.string()),
      serialNumber: maybe(z.string()),
      ipAddress: maybe(z.string()),
      status: maybe(z.string()),
      notes: maybe(z.string()),
      imageUrl: maybe(z.string()),
      probeType: maybe(z.enum(probeTypes)),
      probePort: maybe(z.number().int()),
    })
    .nullable(),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** gateway → inventory: checked lines, a batch at a time, kept until the run (NATS messages are limited to 1 MB). */
export const importStageSchema = z.object({
  importId: idSchema,
  seq: z.number().int().nonnegative(),
  rows: z.array(importRowSchema).max(MAX_IMPORT_ROWS),
});
export const importStagedSchema = z.object({ staged: z.number().int().nonnegative() });

/**
 * gateway → inventory: plan the staged lines against the inventory and, unless `dryRun`, apply the
 * plan in one transaction. `rows` is how many lines the file had, `errors` what the gateway found
 * in them by themselves: with any, nothing is applied.
 */
export const importRunSchema = z.object({
  importId: idSchema,
  dryRun: z.boolean(),
  rows: z.number().int().nonnegative(),
  errors: z.array(importErrorSchema),
  errorCount: z.number().int().nonnegative(),
});
export type ImportRun = z.infer<typeof importRunSchema>;

export const importFileMessages = {
  notUtf8:
    'The file is not UTF-8 text. Save it from the spreadsheet as "CSV UTF-8 (comma delimited)" and import it again.',
  empty:
    'The file is empty. Export the inventory for a file with the header line, or see docs/csv-format.md.',
  noHeader: (first: string) =>
    `The first line must be the header naming the columns (building_name first is usual), but it is "${first.slice(0, 80)}". Add the header line; export the inventory to see it.`,
  unknownColumns: (unknown: string[]) =>
    `Unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')}. Remove ${unknown.length > 1 ? 'them' : 'it'} or rename to one of: ${inventoryCsvColumns.join(', ')}.`,
  repeatedColumn: (column: string) => `The column "${column}" is in the header twice. Keep one of them.`,
  noBuildingColumn: 'The header has no building_name column; every line names its building.',
  tooLarge: (maxBytes: number) =>
    `The file is larger than ${maxBytes.toLocaleString('en-US')} bytes (${Math.round(maxBytes / 1024 / 1024)} MB), the most one import reads. Split it into smaller files and import them one after another.`,
  tooManyRows: (max: number) =>
    `The file has more than ${max.toLocaleString('en-US')} rows. Split it into files of at most ${max.toLocaleString('en-US')} rows and import them one after another.`,
  malformed: (line: number, why: string) =>
    `Line ${line} is not valid CSV (${why}). Check its quotes: a cell with a comma, quote or line break is written in double quotes, and a quote inside it is doubled.`,
  hasErrors: (count: number) =>
    `Nothing was imported: the file has ${count.toLocaleString('en-US')} error${count === 1 ? '' : 's'}. Correct ${count === 1 ? 'it' : 'them'} and import the file again.`,
};

/** The header's columns, checked: each known and once; building_name present. */
export function checkImportHeader(header: string[]): { columns: InventoryCsvColumn[] } | { error: string } {
  const names = header.map((h) => h.trim().toLowerCase());
  const known = new Set<string>(inventoryCsvColumns);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length === names.length) return { error: importFileMessages.noHeader(header.join(',')) };
  if (unknown.length) return { error: importFileMessages.unknownColumns(unknown) };
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) return { error: importFileMessages.repeatedColumn(n) };
    seen.add(n);
  }
  if (!seen.has('building_name')) return { error: importFileMessages.noBuildingColumn };
  return { columns: names as InventoryCsvColumn[] };
}

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
  if (errors.length) return { row: null, errors };

  const v = values as Record<InventoryCsvColumn, never>;
  return {
    row: {
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
    },
    errors,
  };
}

/** The picture paths a row names, with the column that names each. */
export function importRowPictures(row: ImportRow): { column: InventoryCsvColumn; path: string }[] {
  const named: [InventoryCsvColumn, string | null | undefined][] = [
    ['building_image_url', row.building.imageUrl],
    ['room_image_url', row.room?.imageUrl],
    ['room_wiring_diagram_url', row.room?.wiringDiagramUrl],
    ['room_seating_layout_url', row.room?.seatingLayoutUrl],
    ['equipment_image_url', row.equipment?.imageUrl],
  ];
  return named.flatMap(([column, path]) => (path ? [{ column, path }] : []));
}

export const inventoryExportFileName = (now: Date): string => datedCsvFileName('inventory', now);
