import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { probeOutcomeSchema, probeReadingSchema, probeTypeSchema } from './device-health';
import { equipmentStatusSchema } from './equipment';

export { describeRoomCheck, ROOM_CHECK_ANSWER_MS } from './room-check-words';

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
  /**
   * Its ping or its probe had not answered when the room's answer was due: what is here is what
   * was known then, and the whole of it follows in a `room.checked` live event of this check.
   */
  pending: z.boolean().optional(),
});
export type RoomCheckEquipment = z.infer<typeof roomCheckEquipmentSchema>;

export const roomCheckResultSchema = z.object({
  roomId: idSchema,
  /** Names the check in the `room.checked` events that bring its pending results. */
  checkId: z.string().optional(),
  checkedAt: timestampSchema,
  durationMs: z.number().nonnegative(),
  /** Whether inventory recorded the results before the answer (a screen refreshed now shows them). */
  recorded: z.boolean(),
  equipment: z.array(roomCheckEquipmentSchema),
  /** "Checked 3 equipment: 2 answered". */
  message: z.string(),
});
export type RoomCheckResult = z.infer<typeof roomCheckResultSchema>;

/** monitor → live stream (`live.room.checked`): results of a room check that came after its answer. */
export const roomCheckedEventSchema = z.object({
  roomId: idSchema,
  checkId: z.string(),
  /** Each equipment whose results came, whole (nothing pending any more). */
  equipment: z.array(roomCheckEquipmentSchema).min(1),
  /** Whether inventory recorded them before the event (the room's list read now shows them). */
  recorded: z.boolean(),
});
export type RoomCheckedEvent = z.infer<typeof roomCheckedEventSchema>;

/** Owner replica's probe of one device for a room check (`monitor.member.probe.<memberId>`). */
export const probeNowRequestSchema = z.object({
  equipmentId: idSchema,
  /** The probe's own timeout. */
  timeoutMs: z.number().int().positive().max(60_000),
});
export type ProbeNowRequest = z.infer<typeof probeNowRequestSchema>;

/** The reading; null when the owner has no probe of that equipment loaded. */
export const probeNowReplySchema = z.object({ reading: probeReadingSchema.nullable() });
export type ProbeNowReply = z.infer<typeof probeNowReplySchema>;
