import { z } from 'zod';
import { equipmentStatusSchema } from './equipment';
import { idSchema, timestampSchema } from './common';

export const DEFAULT_MONITOR_INTERVAL_MS = 30_000;

export const monitoringStatusSchema = z.object({
  isRunning: z.boolean(),
  interval: z.number().int().positive().nullable(),
});
export type MonitoringStatus = z.infer<typeof monitoringStatusSchema>;

export const monitoringCheckResultSchema = z.object({
  completed: z.boolean(),
  targets: z.number().int().nonnegative(),
  answered: z.number().int().nonnegative(),
  durationMs: z.number().nonnegative(),
  message: z.string(),
});
export type MonitoringCheckResult = z.infer<typeof monitoringCheckResultSchema>;

/** One address's answer within a check. */
export const addressResultSchema = z.object({
  address: z.string(),
  alive: z.boolean(),
  rttMs: z.number().nonnegative().nullable(),
});

/** The event the monitor publishes for every equipment it checked (JetStream, at-least-once). */
export const statusEventSchema = z.object({
  /** Unique per check: the de-duplication key on the stream and in the status history. */
  eventId: z.string().min(1).max(64),
  equipmentId: idSchema,
  sweepId: z.string().min(1).max(64),
  status: equipmentStatusSchema,
  checkedAt: timestampSchema,
  rttMs: z.number().nonnegative().nullable(),
  results: z.array(addressResultSchema),
});
export type StatusEvent = z.infer<typeof statusEventSchema>;

/** One equipment the monitor pings: its id and its address or range as stored. */
export const monitorTargetSchema = z.object({
  equipmentId: idSchema,
  ipAddress: z.string(),
  status: equipmentStatusSchema,
});
export type MonitorTarget = z.infer<typeof monitorTargetSchema>;

export const MAX_TARGETS_PAGE = 1000;

/** monitor → inventory (`inventory.equipment.targets`): equipment with an address, by id. */
export const targetsPageRequestSchema = z.object({
  /** The last id of the previous page; the first page has none. */
  after: idSchema.optional(),
  limit: z.number().int().min(1).max(MAX_TARGETS_PAGE).default(500),
});
export type TargetsPageRequest = z.input<typeof targetsPageRequestSchema>;

export const targetsPageSchema = z.object({
  items: z.array(monitorTargetSchema),
  /** Pass as `after` for the next page; null on the last page. */
  nextCursor: idSchema.nullable(),
});
export type TargetsPage = z.infer<typeof targetsPageSchema>;
