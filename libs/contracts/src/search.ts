import { z } from 'zod';
import { idSchema, storableText } from './common';
import { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from './search-limits';

export { SEARCH_LIMIT, SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from './search-limits';

export const searchQuerySchema = z.object({
  // `?q=a&q=b` arrives as an array: a different mistake from leaving the text out.
  q: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'Search text is required' : 'Search text must be given once',
    })
    .pipe(
      storableText('Search text')
        .trim()
        .min(SEARCH_MIN_LENGTH, { message: `Search text must be at least ${SEARCH_MIN_LENGTH} characters` })
        .max(SEARCH_MAX_LENGTH, { message: `Search text must be at most ${SEARCH_MAX_LENGTH} characters` }),
    ),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const buildingHitSchema = z.object({
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
});

export const roomHitSchema = z.object({
  id: idSchema,
  name: z.string(),
  floor: z.string(),
  buildingId: idSchema,
  buildingName: z.string(),
  /** "Building > Room" */
  path: z.string(),
});

export const equipmentHitSchema = z.object({
  id: idSchema,
  name: z.string(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  ipAddress: z.string().nullable(),
  status: z.string(),
  roomId: idSchema,
  buildingId: idSchema,
  /** "Building > Room" */
  path: z.string(),
});

const group = <T extends z.ZodType>(item: T) =>
  z.object({
    /** At most SEARCH_LIMIT, by name. */
    items: z.array(item),
    /** True when more records of this kind match than `items` holds. */
    more: z.boolean(),
  });

/**
 * `GET /api/search?q=`: buildings (name, description), rooms (name) and equipment (name, model,
 * serial number, address, notes) whose text holds `q`, in any letter case.
 */
export const searchResultSchema = z.object({
  query: z.string(),
  buildings: group(buildingHitSchema),
  rooms: group(roomHitSchema),
  equipment: group(equipmentHitSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
export type BuildingHit = z.infer<typeof buildingHitSchema>;
export type RoomHit = z.infer<typeof roomHitSchema>;
export type EquipmentHit = z.infer<typeof equipmentHitSchema>;
