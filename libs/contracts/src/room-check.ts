import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { probeOutcomeSchema, probeTypeSchema } from './device-health';
import { equipmentStatusSchema } from './equipment';

/**
 * How long a room check gives each deep probe, at most: a technician in front of the device waits
 * for the answer, so the probe's own timeout (MONITOR_PROBE_TIMEOUT_MS, 8 s by default) is cut
 * to this.
 */
export const ROOM_CHECK_PROBE_TIMEOUT_MS = 1500;

/** The most equipment one room check takes: a room holds a few dozen devices at most. */
export const ROOM_CHECK_MAX_EQUIPMENT = 500;

/** gateway → monitor (`monitor.room.check`): the room's equipment as inventory has them now. */
export const roomCheckRequestSchema = z.object({
  roomId: idSchema,
  equipment: z
    .array(z.object({ equipmentId: idSchema, ipAddress: z.string().nullable() }))
    .max(ROOM_CHECK_MAX_EQUIPMENT),
});
export type RoomCheckRequest = z.infer<typeof roomCheckRequestSchema>;

/** One equipment's answer in a room check. */
export const roomCheckEquipmentSchema = z.object({
  equipmentId: idSchema,
  /** What the ping found; null when it was not pinged (no address, or one the monitor may not reach). */
  status: equipmentStatusSchema.nullable(),
  rttMs: z.number().nonnegative().nullable(),
  /** The deep probe's outcome; null when it has none (ICMP only, or a range). */
  probe: z
    .object({ type: probeTypeSchema, outcome: probeOutcomeSchema, detail: z.string().optional() })
    .nullable(),
  /** Why it was not pinged, in plain words. */
  skipped: z.string().optional(),
});
export type RoomCheckEquipment = z.infer<typeof roomCheckEquipmentSchema>;

export const roomCheckResultSchema = z.object({
  roomId: idSchema,
  checkedAt: timestampSchema,
  durationMs: z.number().nonnegative(),
  /** Whether inventory recorded the results before the answer (a screen refreshed now shows them). */
  recorded: z.boolean(),
  equipment: z.array(roomCheckEquipmentSchema),
  /** "Checked 3 equipment: 2 answered". */
  message: z.string(),
});
export type RoomCheckResult = z.infer<typeof roomCheckResultSchema>;
