import { z } from 'zod';
import { isAddressError, parseAddressTarget } from './address';
import { idSchema, limits, optionalText, requiredText, timestampSchema } from './common';
import { deviceHealthSchema, probeInputSchema, probeViewSchema } from './device-health';
import { picturePath } from './media';
import { equipmentStatuses } from './equipment-statuses';
import { versionSchema } from './versions';

export { equipmentStatuses } from './equipment-statuses';

export const equipmentStatusSchema = z.enum(equipmentStatuses, {
  message: `Status must be one of: ${equipmentStatuses.join(', ')}`,
});
export type EquipmentStatus = z.infer<typeof equipmentStatusSchema>;

const ipAddress = z
  .string({ message: 'IP address must be text' })
  .trim()
  .nullish()
  .superRefine((v, ctx) => {
    if (!v) return;
    const parsed = parseAddressTarget(v);
    if (isAddressError(parsed)) ctx.addIssue({ code: 'custom', message: parsed.error });
  })
  .transform((v) => (v ? v : null));

const equipmentName = requiredText(limits.name, 'Equipment name');

export const equipmentCreateSchema = z.object({
  name: equipmentName,
  model: optionalText(limits.shortText, 'Model'),
  serialNumber: optionalText(limits.shortText, 'Serial number'),
  ipAddress,
  status: equipmentStatusSchema.default('active'),
  notes: optionalText(limits.notes, 'Notes', { multiline: true }),
  imageUrl: picturePath('imageUrl'),
  type: optionalText(limits.shortText, 'Type'),
  /**
   * The device it is reached through (the room's switch, say): while that one fails, this one's
   * failure is reported inside its alert, not on its own. Null or absent: none.
   */
  upstreamEquipmentId: z
    .uuid({ message: 'Upstream device must be an equipment id' })
    .nullish()
    .transform((v) => v ?? null),
  /**
   * How the monitor reads the device's health beyond ping (left out: ICMP, or on an update the
   * probe as it is). Its secrets are write-only.
   */
  probe: probeInputSchema.optional(),
});
export type EquipmentCreate = z.infer<typeof equipmentCreateSchema>;

/** The web form sends roomId too; the path names the room, so the body's copy must agree with it. */
export const equipmentCreateBodySchema = equipmentCreateSchema.extend({ roomId: idSchema.optional() });
export type EquipmentCreateBody = z.infer<typeof equipmentCreateBodySchema>;

/**
 * The edit form sends roomId, name, type, model, serialNumber, ipAddress, status and notes. A
 * field left out keeps its value (the form never sends imageUrl); one sent empty is cleared.
 * A roomId other than the current room moves the equipment there.
 */
export const equipmentUpdateSchema = equipmentCreateSchema
  .extend({ roomId: idSchema, status: equipmentStatusSchema })
  .partial()
  .extend({ name: equipmentName });
export type EquipmentUpdate = z.infer<typeof equipmentUpdateSchema>;

export const equipmentSchema = z.object({
  id: idSchema,
  roomId: idSchema,
  name: z.string(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  ipAddress: z.string().nullable(),
  status: z.string(),
  notes: z.string().nullable(),
  imageUrl: z.string().nullable(),
  type: z.string().nullable(),
  upstreamEquipmentId: idSchema.nullable(),
  /** Edits made through the API, from 1 (the monitor's status writes do not count). */
  version: versionSchema,
  /** When the monitor last checked it (null before its first check). */
  lastCheckedAt: timestampSchema.nullable(),
  /** Round-trip time of that check in ms (a range: its answering addresses' mean); null without an answer. */
  lastRttMs: z.number().nonnegative().nullable(),
  /** How its health is read; ICMP when no other probe was chosen. */
  probe: probeViewSchema.optional(),
  /** What its probe last read; null before a probe other than ICMP answered. */
  health: deviceHealthSchema.nullable().optional(),
});
export type Equipment = z.infer<typeof equipmentSchema>;

/** An equipment as the "Upstream device" choice lists it: the building's equipment, with its room. */
export const equipmentOptionSchema = z.object({
  id: idSchema,
  name: z.string(),
  ipAddress: z.string().nullable(),
  roomId: idSchema,
  roomName: z.string(),
});
export type EquipmentOption = z.infer<typeof equipmentOptionSchema>;

/** gateway → inventory */
export const equipmentCreateMessageSchema = z.object({
  roomId: idSchema,
  equipment: equipmentCreateBodySchema,
});
export type EquipmentCreateMessage = z.infer<typeof equipmentCreateMessageSchema>;
export const equipmentUpdateMessageSchema = z.object({
  id: idSchema,
  changes: equipmentUpdateSchema,
  ifVersion: versionSchema.optional(),
});
export type EquipmentUpdateMessage = z.infer<typeof equipmentUpdateMessageSchema>;

/** What happened to an equipment's address, as far as the monitor's target list is concerned. */
/** `probeChanged`: its probe settings or secrets changed; the monitor reloads its probe targets. */
export const equipmentChangeKinds = ['created', 'addressChanged', 'deleted', 'probeChanged'] as const;
export const equipmentChangeKindSchema = z.enum(equipmentChangeKinds);
export type EquipmentChangeKind = z.infer<typeof equipmentChangeKindSchema>;

/**
 * Published by inventory on JetStream (`inventory.equipment.changed`) after the change commits,
 * for equipment that has or had an address. `eventId` is also the message id (de-duplication).
 */
export const equipmentChangedEventSchema = z.object({
  eventId: z.string().min(1),
  kind: equipmentChangeKindSchema,
  equipmentId: idSchema,
  /** The address now; null once deleted or cleared. */
  ipAddress: z.string().nullable(),
  /** The address before the change; null when created or when it had none. */
  previousIpAddress: z.string().nullable(),
  changedAt: timestampSchema,
});
export type EquipmentChangedEvent = z.infer<typeof equipmentChangedEventSchema>;
