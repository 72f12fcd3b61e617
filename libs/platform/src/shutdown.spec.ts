import { onExit, runExitTasks } from './shutdown';

describe(runExitTasks.name, () => {
  it('runs every task once, and ends when the slowest is given up on (a collector that does not answer)', async () => {
    const ran: string[] = [];
    onExit(async () => void ran.push('flush'));
    onExit(() => new Promise(() => ran.push('hangs')));
    onExit(async () => {
      ran.push('fails');
      throw new Error('collector refused');
    });

    const started = performance.now();
    await runExitTasks(100);
    await runExitTasks(100);

    expect(performance.now() - started).toBeLessThan(1000);
    expect(ran.sort()).toEqual(['fails', 'flush', 'hangs']);
  });
});
