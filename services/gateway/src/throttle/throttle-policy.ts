/** The counters of one throttling key as stored, times in milliseconds. */
export interface Counter {
  failures: number;
  /** Attempts admitted and not yet answered. */
  pending: number;
  lastFailureAt: number | null;
  touchedAt: number;
}

export interface Policy {
  /** Failures this key may have before each further attempt waits. */
  limit: number;
  /** Longest wait, in seconds. */
  maxDelaySeconds: number;
  /** Failures are forgotten once a key has been free to try for this long without failing. */
  windowSeconds: number;
  /** Attempts of this key that may be in flight at once; unset: only the limit bounds them. */
  maxPending?: number;
}

/** An attempt in flight longer than this belongs to a gateway that stopped before answering it. */
const pendingLifetimeMs = 5 * 60_000;

/** The wait after `failures`: none up to the limit, then 1 s doubling with each failure, up to the cap. */
export function delaySeconds(failures: number, policy: Policy): number {
  if (failures < policy.limit) return 0;
  return Math.min(2 ** Math.min(failures - policy.limit, 30), policy.maxDelaySeconds);
}

/**
 * When the key may try again. Below the limit at once, whatever the time of the last failure:
 * replicas' clocks differ a little, and a failure stamped in this one's future must not hold it back.
 */
function freeAt(failures: number, lastFailureAt: number | null, policy: Policy): number {
  const delay = delaySeconds(failures, policy);
  return delay === 0 || lastFailureAt === null ? 0 : lastFailureAt + delay * 1000;
}

/** The counter as it stands at `now`: failures forgotten after the window, lost attempts dropped. */
export function current(counter: Counter, policy: Policy, now: number): Counter {
  const { failures, lastFailureAt } = counter;
  const quietSince = (lastFailureAt ?? 0) + delaySeconds(failures, policy) * 1000;
  const forgotten = failures > 0 && now >= quietSince + policy.windowSeconds * 1000;
  return {
    ...counter,
    failures: forgotten ? 0 : failures,
    lastFailureAt: forgotten ? null : lastFailureAt,
    pending: now - counter.touchedAt >= pendingLifetimeMs ? 0 : counter.pending,
  };
}

/**
 * Seconds until this key may try again, or 0 when it may now. Attempts in flight count as
 * failures that may come: at the limit only one is let through at a time, so parallel guesses
 * cannot pass it.
 */
export function waitSeconds(counter: Counter, policy: Policy, now: number): number {
  const { failures, pending, lastFailureAt } = current(counter, policy, now);
  const free = freeAt(failures, lastFailureAt, policy);
  if (now < free) return Math.ceil((free - now) / 1000);
  if (pending > 0 && failures + pending >= policy.limit) return 1;
  return 0;
}

/**
 * Whether this key already has as many attempts in flight as it may: one address flooding
 * sign-in then takes no more of auth's password checks than this, whatever its failures.
 */
export function atCapacity(counter: Counter, policy: Policy, now: number): boolean {
  return policy.maxPending !== undefined && current(counter, policy, now).pending >= policy.maxPending;
}

/** Whether failures hold this key back: it has reached its limit and not yet been forgiven. */
export function isLocked(counter: Counter, policy: Policy, now: number): boolean {
  return current(counter, policy, now).failures >= policy.limit;
}

/** Counters untouched since this time are forgotten whatever they held. */
export function forgottenBefore(policy: Policy, now: number): number {
  return now - (policy.maxDelaySeconds + policy.windowSeconds) * 1000 - pendingLifetimeMs;
}
