import { PeriodicTask } from './periodic-task';

/** A round that ends when the test says. */
function heldRounds() {
  const ends: (() => void)[] = [];
  let started = 0;
  const round = () =>
    new Promise<number>((resolve) => {
      const n = ++started;
      ends.push(() => resolve(n));
    });
  return { round, started: () => started, end: () => ends.shift()!() };
}

describe('PeriodicTask', () => {
  it('joins the round under way instead of starting a second beside it', async () => {
    const rounds = heldRounds();
    const task = new PeriodicTask(rounds.round, () => undefined);
    const first = task.run();
    const joined = task.run();
    expect(rounds.started()).toBe(1);
    rounds.end();
    expect(await Promise.all([first, joined])).toEqual([1, 1]);
    const next = task.run();
    expect(rounds.started()).toBe(2);
    rounds.end();
    expect(await next).toBe(2);
  });

  it('hands a failed round to its handler and runs the next one', async () => {
    const failures: unknown[] = [];
    let calls = 0;
    const task = new PeriodicTask(
      async () => {
        if (++calls === 1) throw new Error('database gone');
        return calls;
      },
      (error) => failures.push(error),
    );
    expect(await task.run()).toBeUndefined();
    expect(failures).toEqual([new Error('database gone')]);
    expect(await task.run()).toBe(2);
  });

  it('stops ticking and waits for the round under way', async () => {
    jest.useFakeTimers();
    try {
      const rounds = heldRounds();
      const task = new PeriodicTask(rounds.round, () => undefined);
      task.start(1000);
      jest.advanceTimersByTime(1000);
      expect(rounds.started()).toBe(1);
      let stopped = false;
      const stopping = task.stop().then(() => (stopped = true));
      await Promise.resolve();
      expect(stopped).toBe(false);
      rounds.end();
      await stopping;
      jest.advanceTimersByTime(5000);
      expect(rounds.started()).toBe(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
