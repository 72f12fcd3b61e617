import { onExit, runExitTasks } from './shutdown';

describe(runExitTasks.name, () => {
  // A clock the test moves: how long the machine takes to run the tasks is no part of the answer.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs every task once, and ends when the slowest is given up on (a collector that does not answer)', async () => {
    const ran: string[] = [];
    onExit(async () => void ran.push('flush'));
    onExit(() => new Promise(() => ran.push('hangs')));
    onExit(async () => {
      ran.push('fails');
      throw new Error('collector refused');
    });

    let ended = false;
    const first = runExitTasks(100).then(() => (ended = true));
    await jest.advanceTimersByTimeAsync(99);
    expect(ended).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await first;

    // Once run, the tasks are gone: a second call has nothing to wait for.
    let again = false;
    const second = runExitTasks(100).then(() => (again = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(again).toBe(true);
    await second;
    expect(ran.sort()).toEqual(['fails', 'flush', 'hangs']);
  });
});
