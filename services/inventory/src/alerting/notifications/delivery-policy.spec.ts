import { afterFailure, RETRY_AFTER_MAX_MS, TEST_KIND } from './delivery-policy';

describe(afterFailure.name, () => {
  const policy = { baseMs: 10_000, maxMs: 60_000, maxAttempts: 5 };

  it('waits twice as long after each failure, up to the cap', () => {
    const waits = [1, 2, 3, 4].map((attempt) => afterFailure('alert', attempt, 'down', policy));
    expect(waits).toEqual([
      { state: 'pending', error: 'down', retryInMs: 10_000 },
      { state: 'pending', error: 'down', retryInMs: 20_000 },
      { state: 'pending', error: 'down', retryInMs: 40_000 },
      { state: 'pending', error: 'down', retryInMs: 60_000 },
    ]);
  });

  it('gives up at the attempt limit, saying so', () => {
    expect(afterFailure('alert', 5, 'HTTP 500', policy)).toEqual({
      state: 'failed',
      error: 'HTTP 500 (gave up after 5 attempts)',
    });
  });

  it("waits at least what a receiver's Retry-After asked for, up to an hour", () => {
    expect(afterFailure('alert', 1, 'HTTP 429', policy, 120_000)).toMatchObject({ retryInMs: 120_000 });
    expect(afterFailure('alert', 3, 'HTTP 429', policy, 1_000)).toMatchObject({ retryInMs: 40_000 });
    expect(afterFailure('alert', 1, 'HTTP 429', policy, 86_400_000)).toMatchObject({
      retryInMs: RETRY_AFTER_MAX_MS,
    });
  });

  it('tries a test message once', () => {
    expect(afterFailure(TEST_KIND, 1, 'refused', policy)).toEqual({ state: 'failed', error: 'refused' });
  });
});
