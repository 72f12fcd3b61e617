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
  eventId: z.string().min(1),
  equipmentId: idSchema,
  sweepId: z.string().min(1),
  status: equipmentStatusSchema,
  checkedAt: timestampSchema,
  rttMs: z.number().nonnegative().nullable(),
  results: z.array(addressResultSchema),
});
export type StatusEvent = z.infer<typeof statusEventSchema>;
