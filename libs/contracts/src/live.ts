import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { equipmentStatusSchema } from './equipment';
import { monitoringStatusSchema } from './monitoring';
import { roomCheckedEventSchema } from './room-check';

/**
 * What `GET /api/events` pushes to open screens (Server-Sent Events). Each event is one message
 * of the `LIVE` stream: its stream sequence is the SSE `id`, the same on every gateway replica.
 */

/** One equipment whose status changed (by a check or by a person), with its parents. */
export const liveEquipmentStatusSchema = z.object({
  equipmentId: idSchema,
  roomId: idSchema,
  buildingId: idSchema,
  status: equipmentStatusSchema,
  lastCheckedAt: timestampSchema.nullable(),
  rttMs: z.number().nonnegative().nullable(),
});
export type LiveEquipmentStatus = z.infer<typeof liveEquipmentStatusSchema>;

/** The status changes one status message (a batch of checks) made: one event per batch, not per device. */
export const equipmentStatusEventSchema = z.object({
  changes: z.array(liveEquipmentStatusSchema).min(1),
});
export type EquipmentStatusEvent = z.infer<typeof equipmentStatusEventSchema>;

export const inventoryKinds = ['building', 'room', 'equipment', 'maintenanceWindow', 'alert'] as const;
export const inventoryActions = ['created', 'updated', 'deleted'] as const;

/**
 * A building, room, equipment or maintenance window was created, updated or deleted (committed).
 * Parents: a room's building; an equipment's room and building; a window's target and the
 * target's parents (a window of a building names the building); a room's alert (`alert`, the id
 * the room's) opened, changed or closed. A delete cascades: its children (a place's windows among
 * them) are not named.
 */
export const inventoryChangedEventSchema = z.object({
  kind: z.enum(inventoryKinds),
  action: z.enum(inventoryActions),
  id: idSchema,
  roomId: idSchema.optional(),
  buildingId: idSchema.optional(),
});
export type InventoryChangedEvent = z.infer<typeof inventoryChangedEventSchema>;

/** Monitoring was started or stopped, or its interval changed. */
export const monitoringStateEventSchema = monitoringStatusSchema;
export type MonitoringStateEvent = z.infer<typeof monitoringStateEventSchema>;

/** The SSE event names of the live stream, each with the schema of its `data`. */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('equipment.status'), data: equipmentStatusEventSchema }),
  z.object({ type: z.literal('inventory.changed'), data: inventoryChangedEventSchema }),
  z.object({ type: z.literal('monitoring.state'), data: monitoringStateEventSchema }),
  z.object({ type: z.literal('room.checked'), data: roomCheckedEventSchema }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;
export type LiveEventType = LiveEvent['type'];

export { liveControlEvents } from './live-control-events';
