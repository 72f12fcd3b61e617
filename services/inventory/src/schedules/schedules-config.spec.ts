import { backoffMs } from './schedules-config';

const MINUTE = 60_000;

describe(backoffMs.name, () => {
  it('tries a failing feed again after the interval, then doubling, up to the cap', () => {
    const waits = [1, 2, 3, 4, 5, 6, 30].map((failures) => backoffMs(failures, 15 * MINUTE, 240 * MINUTE));
    expect(waits.map((ms) => ms / MINUTE)).toEqual([15, 30, 60, 120, 240, 240, 240]);
  });

  it('never waits less than the interval, whatever the cap', () => {
    expect(backoffMs(3, 60 * MINUTE, 10 * MINUTE)).toBe(60 * MINUTE);
  });
});
