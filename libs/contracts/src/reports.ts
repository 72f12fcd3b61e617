import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { csvLine } from './csv';

/** Reports cover the last 30 days (spec section 9). */
export const REPORT_WINDOW_HOURS = 720;

/**
 * One equipment's line of the uptime report. Time is weighed from the status history: each
 * recorded status holds until the next one. Active counts as up; inactive and partial as
 * down; maintenance is neither. The percentage is of up + down time, null with no history.
 */
export const equipmentUptimeSchema = z.object({
  equipmentId: idSchema,
  buildingId: idSchema,
  buildingName: z.string(),
  roomId: idSchema,
  roomName: z.string(),
  name: z.string(),
  type: z.string().nullable(),
  ipAddress: z.string().nullable(),
  status: z.string(),
  uptimePercent: z.number().min(0).max(100).nullable(),
  uptimeHours: z.number().nonnegative(),
  downtimeHours: z.number().nonnegative(),
  /** When the status was last set, by a check or by a person. */
  lastUpdated: timestampSchema,
});
export type EquipmentUptime = z.infer<typeof equipmentUptimeSchema>;

export const reportSummarySchema = z.object({
  buildings: z.number().int().nonnegative(),
  totalEquipment: z.number().int().nonnegative(),
  /** Equipment whose status is active. */
  online: z.number().int().nonnegative(),
  /** Equipment whose status is inactive. */
  offline: z.number().int().nonnegative(),
  /** Share of online equipment, to one decimal (0 with no equipment). */
  overallUptimePercent: z.number().min(0).max(100),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** Rows of the report that `GET /api/reports/uptime` carries; the whole list is the CSV. */
export const REPORT_PREVIEW_ROWS = 100;

/**
 * `GET /api/reports/uptime`: the Reports screen's counts, and the first rows of the report (by
 * equipment id). A campus's whole list is `GET /api/reports/uptime.csv`, streamed by the server.
 */
export const uptimeReportSchema = reportSummarySchema.extend({
  windowHours: z.number().int().positive(),
  generatedAt: timestampSchema,
  /** At most REPORT_PREVIEW_ROWS rows. */
  equipment: z.array(equipmentUptimeSchema),
  /** True when there are more rows than `equipment` holds (see the CSV). */
  truncated: z.boolean(),
});
export type UptimeReport = z.infer<typeof uptimeReportSchema>;

export const MAX_REPORT_PAGE = 1000;

/**
 * gateway → inventory (`inventory.report`), one page at a time: a whole campus does not fit in
 * one NATS message (1 MB by default), so the gateway pages and assembles the answer.
 */
export const reportPageRequestSchema = z.object({
  after: idSchema.optional(),
  limit: z.number().int().min(1).max(MAX_REPORT_PAGE).default(500),
  /** The end of the window; every page of one report passes the same instant. Default now. */
  asOf: timestampSchema.optional(),
});
export type ReportPageRequest = z.input<typeof reportPageRequestSchema>;

export const reportPageSchema = z.object({
  /** On the first page only (the one without `after`). */
  summary: reportSummarySchema.extend({ generatedAt: timestampSchema }).nullable(),
  items: z.array(equipmentUptimeSchema),
  nextCursor: idSchema.nullable(),
});
export type ReportPage = z.infer<typeof reportPageSchema>;

/**
 * gateway → inventory (`inventory.report.open`): the whole uptime report as CSV, written by one
 * query (PostgreSQL's COPY) and pulled a chunk at a time on `inventory.report.chunk.<streamId>` (one NATS
 * reply is limited to 1 MB; see docs/architecture.md, "The uptime CSV"). The gateway names the
 * stream, so that it can cancel it before inventory has even answered.
 */
export const reportStreamOpenSchema = z.object({
  streamId: idSchema,
  /** The end of the window. Default now. */
  asOf: timestampSchema.optional(),
});
export const reportStreamOpenedSchema = z.object({ streamId: idSchema });

/**
 * A pull of the next chunk of an open report stream. Its reply is raw UTF-8 CSV text, not JSON:
 * the gateway writes it as it comes. Headers (CHUNK_HEADERS in @cm/platform) mark the last chunk,
 * an error, or a pull that cancels the stream instead.
 */
export const reportChunkPullSchema = z.object({});
/** The reply to a pull, as text (documentation: it travels as raw bytes). */
export const reportChunkSchema = z.string();

/** Spec section 9, in this order. */
export const uptimeCsvColumns = [
  'Building',
  'Room',
  'Equipment Name',
  'Equipment Type',
  'IP Address',
  'Status',
  'Uptime %',
  'Uptime Hours',
  'Downtime Hours',
  'Last Updated',
] as const;

const hours = (h: number) => h.toFixed(1);

/** What a line of the uptime CSV shows of a row (the ids are not in it). */
export type UptimeCsvRow = Omit<EquipmentUptime, 'equipmentId' | 'buildingId' | 'roomId'>;

/** One line of the uptime CSV, CRLF-terminated. */
export function uptimeCsvLine(r: UptimeCsvRow): string {
  return csvLine([
    r.buildingName,
    r.roomName,
    r.name,
    r.type ?? '',
    r.ipAddress || 'N/A',
    r.status,
    // No recorded history in the window: no percentage to give.
    r.uptimePercent === null ? 'N/A' : r.uptimePercent.toFixed(1),
    hours(r.uptimeHours),
    hours(r.downtimeHours),
    r.lastUpdated,
  ]);
}

export const uptimeCsvHeader = uptimeCsvColumns.join(',') + '\r\n';

/** The uptime report as CSV text, a header line then one line per equipment. */
export function uptimeCsv(rows: readonly EquipmentUptime[]): string {
  return uptimeCsvHeader + rows.map(uptimeCsvLine).join('');
}

export { uptimeCsvFileName } from './report-file-names';
