import { z } from 'zod';
import { errorBodySchema } from './errors';

/**
 * A building, room or equipment counts its edits from 1. A GET answers the count as the record's
 * `ETag`; a PUT with `If-Match` naming an older count is refused with 412 and the record as it is
 * now, so that an edit made offline never silently overwrites one made meanwhile.
 */
export const versionSchema = z.number().int().positive();

export const ETAG_HEADER = 'ETag';
export const IF_MATCH_HEADER = 'If-Match';

/** A strong entity tag of a version: `"3"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/**
 * The version an `If-Match` header names: undefined without the header or for `*` (any current
 * record: the write goes ahead as without it), null when it is not one of our entity tags.
 * A weak tag (`W/"3"`) is read as its strong one: only the count is compared.
 */
export function versionOfIfMatch(header: string | undefined): number | undefined | null {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"([1-9]\d{0,9})"$/.exec(value);
  if (!match) return null;
  const version = Number(match[1]);
  return Number.isSafeInteger(version) && version <= 2_147_483_647 ? version : null;
}

/** A 412's body: the usual error, and the record as the server has it now, to show beside one's own. */
export const staleWriteBodySchema = errorBodySchema.extend({ current: z.record(z.string(), z.unknown()) });
export type StaleWriteBody = z.infer<typeof staleWriteBodySchema>;
