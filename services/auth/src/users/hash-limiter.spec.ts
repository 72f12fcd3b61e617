import { ErrorCode } from '@cm/contracts';
import { type AppError } from '@cm/platform';
import { HashLimiter } from './hash-limiter';

/** A task that runs until the test ends it. */
function task() {
  let finish!: (value: string) => void;
  let fail!: (error: Error) => void;
  const started = jest.fn();
  const promise = new Promise<string>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { started, finish, fail, run: () => (started(), promise) };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ran',
    (error: AppError) => error.code,
  );

describe(HashLimiter.name, () => {
  afterEach(() => jest.useRealTimers());

  it('runs up to the limit at once, queues the next ones, and refuses beyond the queue at once', async () => {
    const sut = new HashLimiter({ concurrency: 2, queueLength: 1, maxWaitMs: 60_000 });
    const [a, b, c] = [task(), task(), task()];
    const results = [sut.run(a.run), sut.run(b.run), sut.run(c.run)];
    const refused = sut.run(task().run);
    expect(await codeOf(refused)).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);
    await Promise.resolve();
    expect([a.started.mock.calls.length, b.started.mock.calls.length, c.started.mock.calls.length]).toEqual([
      1, 1, 0,
    ]);
    a.finish('a');
    expect(await results[0]).toBe('a');
    await Promise.resolve();
    expect(c.started).toHaveBeenCalled();
    b.finish('b');
    c.finish('c');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
  });

  it('gives the slot of a failed task to the next one', async () => {
    const sut = new HashLimiter({ concurrency: 1, queueLength: 1, maxWaitMs: 60_000 });
    const [a, b] = [task(), task()];
    const first = sut.run(a.run);
    const second = sut.run(b.run);
    a.fail(new Error('argon2 failed'));
    await expect(first).rejects.toThrow('argon2 failed');
    await Promise.resolve();
    b.finish('b');
    expect(await second).toBe('b');
    // Both slots are free again: two run at once without a refusal.
    const [c, d] = [task(), task()];
    const both = [sut.run(c.run), sut.run(d.run)];
    c.finish('c');
    d.finish('d');
    expect(await Promise.all(both)).toEqual(['c', 'd']);
  });

  it('runs a task with priority ahead of those waiting, and in a full queue in the place of the last of them', async () => {
    const sut = new HashLimiter({ concurrency: 1, queueLength: 2, maxWaitMs: 60_000 });
    const [a, b, c, p, q] = [task(), task(), task(), task(), task()];
    const running = sut.run(a.run);
    const [waitingB, waitingC] = [codeOf(sut.run(b.run)), codeOf(sut.run(c.run))];
    const first = codeOf(sut.run(p.run, true));
    expect(await waitingC).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);
    const second = codeOf(sut.run(q.run, true));
    expect(await waitingB).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);
    // A full queue of tasks with priority refuses the next one, with priority or not.
    expect(await codeOf(sut.run(task().run, true))).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);
    expect(await codeOf(sut.run(task().run))).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);

    a.finish('a');
    await running;
    await Promise.resolve();
    expect([p.started.mock.calls.length, q.started.mock.calls.length]).toEqual([1, 0]);
    p.finish('p');
    expect(await first).toBe('ran');
    await Promise.resolve();
    expect(q.started).toHaveBeenCalled();
    q.finish('q');
    expect(await second).toBe('ran');
    expect([b.started, c.started].map((s) => s.mock.calls.length)).toEqual([0, 0]);
  });

  it('puts a task with priority behind those with priority already waiting, ahead of the rest', async () => {
    const sut = new HashLimiter({ concurrency: 1, queueLength: 3, maxWaitMs: 60_000 });
    const order: string[] = [];
    const tasks = { a: task(), b: task(), p: task(), q: task() };
    const run = (name: keyof typeof tasks, priority = false) =>
      sut.run(() => (order.push(name), tasks[name].run()), priority);
    const all = [run('a'), run('b'), run('p', true), run('q', true)];
    for (const name of ['a', 'p', 'q', 'b'] as const) {
      await Promise.resolve();
      tasks[name].finish(name);
      await all[['a', 'b', 'p', 'q'].indexOf(name)];
    }
    expect(order).toEqual(['a', 'p', 'q', 'b']);
  });

  it('refuses a waiting task once it has waited the longest it may, and does not run it later', async () => {
    jest.useFakeTimers();
    const sut = new HashLimiter({ concurrency: 1, queueLength: 5, maxWaitMs: 2500 });
    const [a, late] = [task(), task()];
    const first = sut.run(a.run);
    const waiting = codeOf(sut.run(late.run));
    jest.advanceTimersByTime(2500);
    expect(await waiting).toBe(ErrorCode.PASSWORD_CHECKS_BUSY);
    a.finish('a');
    expect(await first).toBe('a');
    expect(late.started).not.toHaveBeenCalled();
  });
});
