import { z } from 'zod';
import { idSchema, limits, optionalText, requiredText } from './common';

export const buildingCreateSchema = z.object({
  name: requiredText(limits.name, 'Building name', 'Building name is required'),
  description: optionalText(limits.description, 'Description'),
  imageUrl: optionalText(limits.url, 'Image URL'),
});
export type BuildingCreate = z.infer<typeof buildingCreateSchema>;

export const buildingSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
});
export type Building = z.infer<typeof buildingSchema>;

/** List responses carry the room count, counted by the database in the same query. */
export const buildingListItemSchema = buildingSchema.extend({ roomCount: z.number().int().nonnegative() });
export type BuildingListItem = z.infer<typeof buildingListItemSchema>;
