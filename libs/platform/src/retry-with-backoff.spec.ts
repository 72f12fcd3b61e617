import { type AttemptOutcome, retryWithBackoff } from './retry-with-backoff';

describe(retryWithBackoff.name, () => {
  /** Runs attempts that end as `outcomes` say, in turn; answers how many ran and the waits reported. */
  async function retry(outcomes: (AttemptOutcome | Error)[]) {
    const waits: number[] = [];
    let attempts = 0;
    await retryWithBackoff(
      new AbortController().signal,
      async () => {
        const outcome = outcomes[attempts++];
        if (outcome instanceof Error) throw outcome;
        return outcome;
      },
      (_error, retryInMs) => waits.push(retryInMs),
      { firstDelayMs: 1, maxDelayMs: 4 },
    );
    return { attempts, waits };
  }

  it('waits longer after each failure, up to the most, and stops at the first success', async () => {
    const failures = [1, 2, 3, 4].map((n) => new Error(`down ${n}`));
    expect(await retry([...failures, 'done'])).toEqual({ attempts: 5, waits: [1, 2, 4, 4] });
  });

  it('starts again from the first delay after an attempt that asked to go again', async () => {
    const outcomes = [new Error('a'), new Error('b'), 'again' as const, new Error('c'), 'done' as const];
    expect((await retry(outcomes)).waits).toEqual([1, 2, 2]);
  });

  it('ends a long wait at once when aborted', async () => {
    const stop = new AbortController();
    const failures: unknown[] = [];
    const retrying = retryWithBackoff(
      stop.signal,
      () => Promise.reject(new Error('down')),
      (error) => failures.push(error),
      { firstDelayMs: 60_000 },
    );
    setImmediate(() => stop.abort());
    await retrying;
    expect(failures).toEqual([new Error('down')]);
  });

  it('does not report a failure that the shutdown caused', async () => {
    const stop = new AbortController();
    const failures: unknown[] = [];
    await retryWithBackoff(
      stop.signal,
      () => {
        stop.abort();
        return Promise.reject(new Error('connection closed'));
      },
      (error) => failures.push(error),
    );
    expect(failures).toEqual([]);
  });
});
