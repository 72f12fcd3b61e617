import { setTimeout as sleep } from 'node:timers/promises';

/** What an attempt asks for when it ends without throwing. */
export type AttemptOutcome = 'done' | 'again';

export interface BackoffOptions {
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * Runs `attempt` until it answers `done` or `signal` aborts. A failure waits before the next try,
 * from `firstDelayMs` doubling up to `maxDelayMs`, so a dependency that is away is not hammered;
 * `again` (a consumer that ended, say) tries anew after the first delay. Aborting ends the wait at
 * once, and a failure seen after aborting is not reported: it is the shutdown, not a fault.
 */
export async function retryWithBackoff(
  signal: AbortSignal,
  attempt: () => Promise<AttemptOutcome>,
  failed: (error: unknown, retryInMs: number) => void,
  { firstDelayMs = 500, maxDelayMs = 10_000 }: BackoffOptions = {},
): Promise<void> {
  let delay = firstDelayMs;
  while (!signal.aborted) {
    try {
      if ((await attempt()) === 'done') return;
      delay = firstDelayMs;
    } catch (error) {
      if (signal.aborted) return;
      failed(error, delay);
    }
    await sleep(delay, undefined, { signal }).catch(() => undefined);
    delay = Math.min(delay * 2, maxDelayMs);
  }
}
