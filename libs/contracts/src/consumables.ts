import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { csvLine, datedCsvFileName } from './csv';

/**
 * One lamp or filter of the consumables report (`GET /api/reports/consumables.csv`): its hours as
 * its probe last read them, its rated life when known (the PJLink probe settings), the replacement
 * part the device names, and the day it reaches its rated life at the last 30 days' use.
 */
export const consumableSchema = z.object({
  equipmentId: idSchema,
  buildingName: z.string(),
  roomName: z.string(),
  equipmentName: z.string(),
  model: z.string().nullable(),
  /** "Lamp 1", "Lamp 2", "Filter". */
  part: z.string(),
  hours: z.number().int().nonnegative(),
  ratedHours: z.number().int().positive().nullable(),
  replacementModel: z.string().nullable(),
  /** Hours of use per day over the last 30 days; null until a day's use is known. */
  hoursPerDay: z.number().nonnegative().nullable(),
  /** The day (YYYY-MM-DD) it reaches its rated life at that use; null without both. */
  replaceBy: z.string().nullable(),
  checkedAt: timestampSchema,
});
export type Consumable = z.infer<typeof consumableSchema>;

export const MAX_CONSUMABLES_PAGE = 500;

/** gateway → inventory (`inventory.reports.consumables`), a page of equipment at a time, by id. */
export const consumablesPageRequestSchema = z.object({
  after: idSchema.optional(),
  limit: z.number().int().min(1).max(MAX_CONSUMABLES_PAGE).default(200),
});
export const consumablesPageSchema = z.object({
  items: z.array(consumableSchema),
  nextCursor: idSchema.nullable(),
});
export type ConsumablesPage = z.infer<typeof consumablesPageSchema>;

export const consumablesCsvColumns = [
  'Building',
  'Room',
  'Equipment',
  'Model',
  'Part',
  'Hours',
  'Rated Hours',
  'Replacement Part',
  'Hours per Day',
  'Replace By',
  'Last Read',
] as const;

export const consumablesCsvHeader = consumablesCsvColumns.join(',') + '\r\n';

/** One line of the consumables CSV, CRLF-terminated; an unknown value is an empty cell. */
export function consumablesCsvLine(c: Consumable): string {
  const text = (v: string | number | null) => (v === null ? '' : String(v));
  return csvLine([
    c.buildingName,
    c.roomName,
    c.equipmentName,
    text(c.model),
    c.part,
    text(c.hours),
    text(c.ratedHours),
    text(c.replacementModel),
    text(c.hoursPerDay),
    text(c.replaceBy),
    c.checkedAt,
  ]);
}

/** consumables-{date}.csv, the date in local time, as the uptime report's. */
export const consumablesCsvFileName = (now: Date): string => datedCsvFileName('consumables', now);
