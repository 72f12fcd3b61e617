import { z } from 'zod';
import { idSchema, limits, optionalText, requiredText } from './common';
import { picturePath } from './media';
import { faultCountSchema, statusCountsSchema } from './problems';
import { versionSchema } from './versions';

export const buildingCreateSchema = z.object({
  name: requiredText(limits.name, 'Building name', 'Building name is required'),
  description: optionalText(limits.description, 'Description', { multiline: true }),
  imageUrl: picturePath('imageUrl'),
});
export type BuildingCreate = z.infer<typeof buildingCreateSchema>;

/**
 * The edit form sends the create payload. A field left out keeps its value (an edit without a
 * new photo must not drop the old one); one sent empty or null is cleared.
 */
export const buildingUpdateSchema = buildingCreateSchema.partial({ description: true, imageUrl: true });
export type BuildingUpdate = z.infer<typeof buildingUpdateSchema>;

export const buildingSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  /** How many edits it has had, from 1: its ETag, and the If-Match of an edit of it. */
  version: versionSchema,
});
export type Building = z.infer<typeof buildingSchema>;

/**
 * List responses carry the room count and how many of the building's devices are in each status,
 * counted by the database in the same query.
 */
export const buildingListItemSchema = buildingSchema.extend({
  roomCount: z.number().int().nonnegative(),
  statusCounts: statusCountsSchema,
  faults: faultCountSchema.optional(),
});
export type BuildingListItem = z.infer<typeof buildingListItemSchema>;

export const buildingIdParamsSchema = z.object({ buildingId: idSchema });

/** gateway → inventory */
export const buildingUpdateMessageSchema = z.object({
  id: idSchema,
  changes: buildingUpdateSchema,
  /** The version the edit was made on (If-Match); absent, the edit applies to whatever is current. */
  ifVersion: versionSchema.optional(),
});
export type BuildingUpdateMessage = z.infer<typeof buildingUpdateMessageSchema>;
