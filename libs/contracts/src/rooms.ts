import { z } from 'zod';
import { flagSchema, idSchema, limits, optionalText, requiredText } from './common';
import { picturePath } from './media';
import { faultCountSchema, statusCountsSchema } from './problems';
import { versionSchema } from './versions';

export const roomTypes = [
  'Classroom',
  'Computer Lab',
  'Science Lab',
  'Chemistry Lab',
  'Physics Lab',
  'Biology Lab',
  'Conference Room',
  'Lecture Hall',
  'Study Room',
  'Library',
  'Office',
  'Storage',
  'Other',
] as const;
export const roomTypeSchema = z.enum(roomTypes, { message: `Type must be one of: ${roomTypes.join(', ')}` });
export type RoomType = z.infer<typeof roomTypeSchema>;

/** A number input may arrive as text ("30"); anything else that is not a number is refused. */
const capacity = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
  z
    .number({ message: 'Capacity must be a number' })
    .int({ message: 'Capacity must be a whole number' })
    .min(0, { message: 'Capacity must be 0 or more' })
    .max(100_000, { message: 'Capacity must be at most 100000' }),
);

const roomFields = {
  name: requiredText(limits.name, 'Room name'),
  type: roomTypeSchema,
  floor: requiredText(32, 'Floor'),
  capacity,
  roomSize: optionalText(limits.shortText, 'Room size'),
  isAdaAccessible: flagSchema,
  imageUrl: picturePath('imageUrl'),
  wiringDiagramUrl: picturePath('wiringDiagramUrl'),
  seatingLayoutUrl: picturePath('seatingLayoutUrl'),
};

export const roomCreateSchema = z.object({
  ...roomFields,
  capacity: capacity.default(0),
  isAdaAccessible: flagSchema.default(1),
});
export type RoomCreate = z.infer<typeof roomCreateSchema>;

export { roomAttachmentFields } from './room-attachment-fields';

/** An update carries the full form, or any subset of the attachment URLs; only what is sent changes. */
export const roomUpdateSchema = z
  .object(roomFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send at least one field to change' });
export type RoomUpdate = z.infer<typeof roomUpdateSchema>;

export const roomSchema = z.object({
  id: idSchema,
  buildingId: idSchema,
  name: z.string(),
  type: z.string(),
  floor: z.string(),
  capacity: z.number().int(),
  roomSize: z.string().nullable(),
  isAdaAccessible: flagSchema,
  imageUrl: z.string().nullable(),
  wiringDiagramUrl: z.string().nullable(),
  seatingLayoutUrl: z.string().nullable(),
  version: versionSchema,
});
export type Room = z.infer<typeof roomSchema>;

export const roomListItemSchema = roomSchema.extend({
  equipmentCount: z.number().int().nonnegative(),
  statusCounts: statusCountsSchema,
  faults: faultCountSchema.optional(),
});
export type RoomListItem = z.infer<typeof roomListItemSchema>;

export const roomIdParamsSchema = z.object({ roomId: idSchema });

/** gateway → inventory */
export const roomCreateMessageSchema = z.object({ buildingId: idSchema, room: roomCreateSchema });
export type RoomCreateMessage = z.infer<typeof roomCreateMessageSchema>;
export const roomUpdateMessageSchema = z.object({
  id: idSchema,
  changes: roomUpdateSchema,
  ifVersion: versionSchema.optional(),
});
export type RoomUpdateMessage = z.infer<typeof roomUpdateMessageSchema>;
