// The headers of versioned and retried writes, and their values. Without zod, so that the web
// app's first screen, which sends them, does not load it (issue 37's budget).

/**
 * The header that makes a create safe to retry: the same key from the same user on the same
 * route within `IDEMPOTENCY_WINDOW_HOURS` answers the first result instead of creating again.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Set on an answer that is the stored result of an earlier request with the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

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
