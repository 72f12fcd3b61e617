import { type DeliveryOutcome } from './delivery.repository';

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  maxAttempts: number;
}

/** Deliveries the test button makes: one attempt, as a retry an hour later would answer nothing. */
export const TEST_KIND = 'test';

/**
 * What follows a failed attempt: another after a wait that doubles each time (capped), or, at the
 * limit, failed. Test deliveries get one attempt.
 */
export function afterFailure(
  kind: string,
  attempt: number,
  error: string,
  policy: RetryPolicy,
): DeliveryOutcome {
  const limit = kind === TEST_KIND ? 1 : policy.maxAttempts;
  if (attempt >= limit) {
    return { state: 'failed', error: limit > 1 ? `${error} (gave up after ${attempt} attempts)` : error };
  }
  const retryInMs = Math.min(policy.baseMs * 2 ** (attempt - 1), policy.maxMs);
  return { state: 'pending', error, retryInMs };
}
