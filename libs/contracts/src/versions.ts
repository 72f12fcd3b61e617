import { z } from 'zod';
import { idParamsSchema } from './common';
import { errorBodySchema } from './errors';

/**
 * A building, room or equipment counts its edits from 1. A GET answers the count as the record's
 * `ETag`; a PUT with `If-Match` naming an older count is refused with 412 and the record as it is
 * now, so that an edit made offline never silently overwrites one made meanwhile.
 */
export const versionSchema = z.number().int().positive();

/** A 412's body: the usual error, and the record as the server has it now, to show beside one's own. */
export const staleWriteBodySchema = errorBodySchema.extend({ current: z.record(z.string(), z.unknown()) });
export type StaleWriteBody = z.infer<typeof staleWriteBodySchema>;

/**
 * gateway → inventory: a delete, with the version it was decided on (If-Match). A delete of a
 * record edited since is refused as stale, like an edit: the person decided on what they saw.
 */
export const deleteMessageSchema = idParamsSchema.extend({ ifVersion: versionSchema.optional() });
export type DeleteMessage = z.infer<typeof deleteMessageSchema>;
