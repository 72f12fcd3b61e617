import { z } from 'zod';
import { idSchema } from './common';
import { csvLine, datedCsvFileName } from './csv';
import { importErrorSchema, MAX_IMPORT_ROWS } from './inventory-import';
import { probeTypes } from './device-health';

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
