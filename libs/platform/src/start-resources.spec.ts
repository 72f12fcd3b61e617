import { closeIfStartFails, closeOpenedDuringStart, startSucceeded } from './start-resources';

describe('start resources', () => {
  it('closes what a failed start opened, newest first, and what it opens after failing', async () => {
    const config = {};
    const closed: string[] = [];
    closeIfStartFails(config, async () => void closed.push('first'));
    closeIfStartFails(config, async () => void closed.push('second'));
    await closeOpenedDuringStart(config);
    expect(closed).toEqual(['second', 'first']);

    // A provider still connecting when another one threw registers late: it is closed at once.
    closeIfStartFails(config, async () => void closed.push('late'));
    await Promise.resolve();
    expect(closed).toEqual(['second', 'first', 'late']);
  });

  it('leaves to the app what a start that went through opened', async () => {
    const config = {};
    const closed: string[] = [];
    closeIfStartFails(config, async () => void closed.push('connection'));
    startSucceeded(config);
    await closeOpenedDuringStart(config);
    expect(closed).toEqual([]);
  });

  it('keeps each start apart', async () => {
    const failing = {};
    const running = {};
    const closed: string[] = [];
    closeIfStartFails(failing, async () => void closed.push('failing'));
    closeIfStartFails(running, async () => void closed.push('running'));
    await closeOpenedDuringStart(failing);
    expect(closed).toEqual(['failing']);
  });
});
