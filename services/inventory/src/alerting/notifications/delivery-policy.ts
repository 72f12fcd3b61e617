import { type DeliveryOutcome } from './delivery.repository';

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/** Deliveries the test button makes: one attempt, as a retry an hour later would answer nothing. */
export const TEST_KIND = 'test';

/** The longest `Retry-After` honoured: a receiver asking for more is tried again after this. */
export const RETRY_AFTER_MAX_MS = 3_600_000;

/**
 * What follows a failed attempt: another after a wait that doubles each time (capped), or, at the
 * limit, failed. A receiver that said how long to wait (a 429's or 503's `Retry-After`) is not
 * tried before that, up to an hour. Test deliveries get one attempt.
 */
export function afterFailure(
  kind: string,
  attempt: number,
  error: string,
  policy: RetryPolicy,
  retryAfterMs: number | null = null,
): DeliveryOutcome {
  const limit = kind === TEST_KIND ? 1 : policy.maxAttempts;
  if (attempt >= limit) {
    return { state: 'failed', error: limit > 1 ? `${error} (gave up after ${attempt} attempts)` : error };
  }
  const backOff = Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxMs);
  const asked = retryAfterMs === null ? 0 : Math.min(retryAfterMs, RETRY_AFTER_MAX_MS);
  return { state: 'pending', error, retryInMs: Math.max(backOff, asked) };
}
