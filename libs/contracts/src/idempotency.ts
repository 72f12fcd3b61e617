import { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER } from './http-headers';

/** Visible ASCII, as a header value can carry it without encoding; a UUID fits comfortably. */
export const idempotencyKeySchema = z.string().regex(/^[\x21-\x7e]{8,128}$/, {
  message: `The ${IDEMPOTENCY_KEY_HEADER} header must be 8 to 128 visible ASCII characters without spaces, for example a UUID`,
});
