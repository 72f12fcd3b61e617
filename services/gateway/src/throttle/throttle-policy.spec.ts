import {
  atCapacity,
  type Counter,
  current,
  delaySeconds,
  isLocked,
  type Policy,
  waitSeconds,
} from './throttle-policy';

const policy: Policy = { limit: 3, maxDelaySeconds: 60, windowSeconds: 900 };
const t0 = Date.UTC(2026, 10, 24, 12);
const counter = (failures: number, fields: Partial<Counter> = {}): Counter => ({
  failures,
  pending: 0,
  lastFailureAt: failures ? t0 : null,
  touchedAt: t0,
  ...fields,
});

describe('sign-in throttling policy', () => {
  it('waits nothing up to the limit, then 1 s doubling with each failure up to the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 50].map((f) => delaySeconds(f, policy))).toEqual([
      0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60,
    ]);
  });

  it('answers the seconds left of the wait, rounded up, and none once it has passed', () => {
    expect(waitSeconds(counter(5), policy, t0)).toBe(4);
    expect(waitSeconds(counter(5), policy, t0 + 3001)).toBe(1);
    expect(waitSeconds(counter(5), policy, t0 + 4000)).toBe(0);
  });

  it('lets only one attempt at a time through at the limit, counting those in flight as failures', () => {
    expect(waitSeconds(counter(0, { pending: 2 }), policy, t0)).toBe(0);
    expect(waitSeconds(counter(0, { pending: 3 }), policy, t0)).toBe(1);
    expect(waitSeconds(counter(2, { pending: 1 }), policy, t0)).toBe(1);
    expect(waitSeconds(counter(3, { pending: 0 }), policy, t0 + 1000)).toBe(0);
    expect(waitSeconds(counter(3, { pending: 1 }), policy, t0 + 1000)).toBe(1);
  });

  it("is at capacity with as many attempts in flight as it may have, until a stopped gateway's are dropped", () => {
    const capped = { ...policy, maxPending: 2 };
    expect([1, 2, 3].map((pending) => atCapacity(counter(0, { pending }), capped, t0))).toEqual([
      false,
      true,
      true,
    ]);
    expect(atCapacity(counter(0, { pending: 2 }), capped, t0 + 5 * 60_000)).toBe(false);
    expect(atCapacity(counter(0, { pending: 50 }), policy, t0)).toBe(false);
  });

  it('forgets failures a window after the wait ended, and attempts in flight left by a stopped gateway', () => {
    expect(current(counter(5), policy, t0 + 4000 + 899_999).failures).toBe(5);
    expect(current(counter(5), policy, t0 + 4000 + 900_000)).toMatchObject({
      failures: 0,
      lastFailureAt: null,
    });
    expect(isLocked(counter(5), policy, t0 + 4000 + 899_999)).toBe(true);
    expect(isLocked(counter(5), policy, t0 + 4000 + 900_000)).toBe(false);
    expect(current(counter(0, { pending: 2 }), policy, t0 + 5 * 60_000).pending).toBe(0);
  });

  it('does not hold back a key below its limit whose last failure another replica stamped a little ahead', () => {
    expect(waitSeconds(counter(2, { lastFailureAt: t0 + 1500 }), policy, t0)).toBe(0);
  });

  it('is locked from the limit on, not before', () => {
    expect([2, 3].map((f) => isLocked(counter(f), policy, t0))).toEqual([false, true]);
  });
});
