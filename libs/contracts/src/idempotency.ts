import { z } from 'zod';

/**
 * The header that makes a create safe to retry: the same key from the same user on the same
 * route within `IDEMPOTENCY_WINDOW_HOURS` answers the first result instead of creating again.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Set on an answer that is the stored result of an earlier request with the same key. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_WINDOW_HOURS = 24;

/** Visible ASCII, as a header value can carry it without encoding; a UUID fits comfortably. */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,128}$/, {
  message: `The ${IDEMPOTENCY_KEY_HEADER} header must be 8 to 128 visible ASCII characters without spaces, for example a UUID`,
});
