import { z } from 'zod';

/** Every record id is a server-generated UUID. */
export const idSchema = z.uuid({ message: 'Must be a valid id' });
export type Id = z.infer<typeof idSchema>;

export const idParamsSchema = z.object({ id: idSchema });

/** What every delete answers once the record is gone. */
export const deletedSchema = z.object({ deleted: z.literal(true) });
export const deleted = { deleted: true } as const;

/** Bounded free text: the database column widths follow these limits. */
export const limits = {
  name: 120,
  shortText: 120,
  description: 2000,
  notes: 4000,
  url: 2048,
} as const;

/** Optional text that arrives as "" from a form field and is stored as null. */
export const optionalText = (max: number, label: string) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredText = (max: number, label: string, requiredMessage = `${label} is required`) =>
  z
    .string({ message: requiredMessage })
    .trim()
    .min(1, { message: requiredMessage })
    .max(max, { message: `${label} must be at most ${max} characters` });

/** The spec stores flags as integers 0 and 1. */
export const flagSchema = z.union([z.literal(0), z.literal(1)], { message: 'Must be 0 or 1' });

export const timestampSchema = z.iso.datetime({ offset: true });
