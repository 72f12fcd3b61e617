import { z } from 'zod';
import { idSchema, queryInstant, queryValue, timestampSchema } from './common';

/** What an entry is about. `route`: an administrator's use of an admin route. */
export const auditEntityTypes = [
  'building',
  'room',
  'equipment',
  'user',
  'channel',
  'maintenanceWindow',
  'quietHours',
  /** A class schedule: its form, and each file uploaded to it (the reply, without the file). */
  'scheduleSource',
  'monitoring',
  'session',
  'apiToken',
  /** An inventory CSV import, dry run or applied, with what it created and changed. */
  'import',
  'route',
] as const;
export const auditEntityTypeSchema = z.enum(auditEntityTypes, {
  message: `entityType must be one of ${auditEntityTypes.join(', ')}`,
});
export type AuditEntityType = z.infer<typeof auditEntityTypeSchema>;

export const auditActions = [
  'create',
  'update',
  'delete',
  'start',
  'stop',
  'check',
  'sign-in',
  'sign-in-failed',
  'use',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** Field values as they were and became; a password, secret or token never appears. */
export const auditValuesSchema = z.record(z.string(), z.unknown()).nullable();

export const auditEntrySchema = z.object({
  id: z.string(),
  at: timestampSchema,
  /** Null for a failed sign-in: nobody was signed in. */
  actorId: idSchema.nullable(),
  actorName: z.string().nullable(),
  /** The API token the request came with, when not a session. */
  apiTokenId: idSchema.nullable(),
  requestId: z.string(),
  clientAddress: z.string(),
  action: z.enum(auditActions),
  entityType: auditEntityTypeSchema,
  entityId: z.string().nullable(),
  /** A change's fields before (update, delete) and after (create, update): an update lists only what changed. */
  before: auditValuesSchema,
  after: auditValuesSchema,
  /**
   * How many events the entry stands for: 1, but refusals of someone not signed in are counted
   * into one entry per address, minute and kind (the first one's), so that a flood stays one row.
   */
  count: z.number().int().min(1),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const AUDIT_PAGE_MAX = 200;

/** `GET /api/audit`: newest first; `cursor` is the previous page's `nextCursor`. */
export const auditQuerySchema = z.object({
  entityType: queryValue('entityType').pipe(auditEntityTypeSchema).optional(),
  entityId: queryValue('entityId')
    .max(200, { message: 'entityId must be at most 200 characters' })
    .optional(),
  actor: queryValue('actor').pipe(idSchema).optional(),
  from: queryInstant('from').optional(),
  to: queryInstant('to').optional(),
  cursor: queryValue('cursor')
    .regex(/^[0-9]{1,19}$/, { message: 'cursor must be a nextCursor from a previous page' })
    .optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int({ message: 'limit must be a whole number' })
    .min(1, { message: 'limit must be at least 1' })
    .max(AUDIT_PAGE_MAX, { message: `limit must be at most ${AUDIT_PAGE_MAX}` })
    .default(50),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditQueryInput = z.input<typeof auditQuerySchema>;

export const auditPageSchema = z.object({
  items: z.array(auditEntrySchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
