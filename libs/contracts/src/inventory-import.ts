import { z } from 'zod';

// What the import answers, apart from how it reads a file (./inventory-csv.ts): the route list and
// the screens need only this, which keeps the parsing out of the web app's first download.

/** Rows one import may hold (not counting the header). */
export const MAX_IMPORT_ROWS = 50_000;
/**
 * Bytes one import file may have: 50,000 lines of about 500 bytes (an export line with every
 * column filled and two picture paths is about 400). Checked on the bytes as they arrive, so a
 * file too large is refused before any line of it is parsed.
 */
export const MAX_IMPORT_BYTES = 25 * 1024 * 1024;
/** Errors an answer lists; `errorCount` says how many there were in all. */
export const IMPORT_ERRORS_SHOWN = 100;

/** A problem of one line of the file (null line: of the file as a whole), in words a person can act on. */
export const importErrorSchema = z.object({
  line: z.number().int().positive().nullable(),
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

export function importError(line: number | null, column: string | null, text: string): ImportError {
  const where = [line === null ? null : `Line ${line}`, column && `column ${column}`].filter(Boolean);
  return { line, column, message: where.length ? `${where.join(', ')}: ${text}` : text };
}

export const importCountsSchema = z.object({
  create: z.number().int().nonnegative(),
  update: z.number().int().nonnegative(),
  unchanged: z.number().int().nonnegative(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

/**
 * The answer of `POST /api/inventory/import`: with `?dryRun=true` the preview (what the file would
 * create, update and leave unchanged, and its errors); without, the counts of what was applied.
 * A file with errors is never applied: without dryRun it is answered 422 with the errors.
 */
export const importAnswerSchema = z.object({
  dryRun: z.boolean(),
  applied: z.boolean(),
  /** Lines of data read (the header not counted). */
  rows: z.number().int().nonnegative(),
  buildings: importCountsSchema,
  rooms: importCountsSchema,
  equipment: importCountsSchema,
  /** The first IMPORT_ERRORS_SHOWN errors, by line. */
  errors: z.array(importErrorSchema),
  errorCount: z.number().int().nonnegative(),
});
export type ImportAnswer = z.infer<typeof importAnswerSchema>;

/** One record an applied import created or changed, for the audit log: an update lists the fields that changed. */
export const importChangeSchema = z.object({
  entityType: z.enum(['building', 'room', 'equipment']),
  action: z.enum(['create', 'update']),
  id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()),
});
export type ImportChange = z.infer<typeof importChangeSchema>;

/**
 * What inventory answers the gateway for an import: the answer, and what an applied one created or
 * changed for the audit log, as many as fit in about IMPORT_CHANGES_BYTES (a NATS message holds
 * 1 MB); `changesNotListed` counts the rest.
 */
export const importRunAnswerSchema = importAnswerSchema.extend({
  changes: z.array(importChangeSchema),
  changesNotListed: z.number().int().nonnegative(),
});
export type ImportRunAnswer = z.infer<typeof importRunAnswerSchema>;
export const IMPORT_CHANGES_BYTES = 512 * 1024;

export const importQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { message: 'dryRun must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
});
