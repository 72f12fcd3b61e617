import { z } from 'zod';
import { equipmentStatusSchema } from './equipment';
import { idSchema, timestampSchema } from './common';

export const DEFAULT_MONITOR_INTERVAL_MS = 30_000;

/**
 * The longest the monitor holds a Check Now request before answering that the check goes on
 * without it; the gateway waits a little longer than this for the answer.
 */
export const MONITOR_CHECK_MAX_WAIT_MS = 25_000;

export const monitoringStatusSchema = z.object({
  isRunning: z.boolean(),
  interval: z.number().int().positive().nullable(),
});
export type MonitoringStatus = z.infer<typeof monitoringStatusSchema>;

/**
 * Monitoring as last started or stopped, kept by inventory in PostgreSQL (`inventory.monitoring.*`):
 * the monitor's KV entry is a copy, restored from this when NATS lost its store.
 */
export const durableMonitoringStateSchema = z.object({
  isRunning: z.boolean(),
  interval: z.number().int().positive(),
  changedAt: timestampSchema,
});
export type DurableMonitoringState = z.infer<typeof durableMonitoringStateSchema>;

/** monitor → inventory: the state it is about to store in KV (inventory stamps the time). */
export const monitoringStateSaveSchema = durableMonitoringStateSchema.omit({ changedAt: true });
export type MonitoringStateSave = z.infer<typeof monitoringStateSaveSchema>;

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
export type AddressResult = z.infer<typeof addressResultSchema>;

/** One equipment's result of one sweep; its event id is `<equipmentId>:<sweepId>`. */
export const statusCheckSchema = z.object({
  equipmentId: idSchema,
  status: equipmentStatusSchema,
  checkedAt: timestampSchema,
  /** Round-trip time of the address, or the mean of a range's answering addresses; null when none answered. */
  rttMs: z.number().nonnegative().nullable(),
  /** Every address pinged for it: one for a single address, `.d`…`.N` for a range. */
  results: z.array(addressResultSchema),
});
export type StatusCheck = z.infer<typeof statusCheckSchema>;

/** One check as its own message, as the monitor published them before batches (still accepted). */
export const statusEventSchema = statusCheckSchema.extend({
  /** Unique per check: `<equipmentId>:<sweepId>`, the stream's de-duplication key. */
  eventId: z.string().min(1).max(64),
  sweepId: z.string().min(1).max(64),
});
export type StatusEvent = z.infer<typeof statusEventSchema>;

/**
 * Results of one sweep as the monitor publishes them: many checks in one message, so a campus
 * sweep is a few hundred messages rather than one per device. The stream's message id is the
 * batch's; each check keeps its own event id for inventory's de-duplication.
 */
export const statusBatchSchema = z.object({
  sweepId: z.string().min(1).max(27),
  checks: z.array(statusCheckSchema).min(1),
});
export type StatusBatch = z.infer<typeof statusBatchSchema>;

/**
 * What travels on `monitor.status.checked`: a batch, or a single event (as published before
 * batches, and still accepted so that events in the stream at an upgrade are not lost). The
 * checks of a batch are only loosely typed here: inventory checks each on its own, so that one
 * malformed check does not take the others with it.
 */
export const statusMessageSchema = z.union([
  statusEventSchema,
  z.object({ sweepId: statusBatchSchema.shape.sweepId, checks: z.array(z.unknown()).min(1) }),
]);
export type StatusMessage = z.infer<typeof statusMessageSchema>;

/** Most checks in one batch message: a few hundred kB, well under NATS's 1 MB payload limit. */
export const STATUS_BATCH_MAX_CHECKS = 500;

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

/** A monitor replica's id: also a NATS subject token and a KV key part. */
export const memberIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/**
 * Coordinator → replica (`monitor.member.sweep.<memberId>`): ping your share of a sweep.
 * Part 0 splits every target over `members` by rendezvous hashing. A later part hands on the
 * targets of replicas that failed: those whose owner among `members` less `excluded` is in
 * `reassigned`, each to its owner among `members` less `excluded` and `reassigned`.
 */
export const sweepAssignmentSchema = z.object({
  sweepId: z.string().min(1).max(27),
  part: z.number().int().nonnegative(),
  members: z.array(memberIdSchema).min(1),
  excluded: z.array(memberIdSchema),
  reassigned: z.array(memberIdSchema),
});
export type SweepAssignment = z.infer<typeof sweepAssignmentSchema>;

export const sweepAcceptanceSchema = z.object({ accepted: z.boolean() });
export type SweepAcceptance = z.infer<typeof sweepAcceptanceSchema>;

/** Replica → coordinator (`monitor.sweep.done`): one part of a sweep finished, or given up. */
export const sweepReportSchema = z.object({
  sweepId: z.string(),
  part: z.number().int().nonnegative(),
  memberId: memberIdSchema,
  /** Equipment in this replica's share. */
  targets: z.number().int().nonnegative(),
  /** Equipment with at least one answering address. */
  answered: z.number().int().nonnegative(),
  /** Status events the stream acknowledged. */
  published: z.number().int().nonnegative(),
  /** True when the replica stopped before finishing: its share must go to another. */
  aborted: z.boolean(),
  /** Highest stream sequence of the results this replica published for the part (0 when none). */
  lastSequence: z.number().int().nonnegative().default(0),
});
export type SweepReport = z.infer<typeof sweepReportSchema>;
