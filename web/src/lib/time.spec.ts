import { duration, timeAgo } from './time';

const now = Date.parse('2026-11-24T12:00:00Z');

describe(timeAgo.name, () => {
  it.each([
    [10_000, 'just now'],
    [-5_000, 'just now'],
    [60_000, '1 min ago'],
    [89 * 60_000, '89 min ago'],
    [5 * 3_600_000, '5 h ago'],
    [35 * 3_600_000, '35 h ago'],
    [36 * 3_600_000, '2 days ago'],
    [30 * 86_400_000, '30 days ago'],
  ])('says %i ms before now is %s', (ago, text) => {
    expect(timeAgo(now - ago, now)).toBe(text);
  });
});

describe(duration.name, () => {
  it.each([
    [30_000, 'under 1 min'],
    [12 * 60_000, '12 min'],
    [3_600_000, '1 h'],
    [5 * 3_600_000 + 10 * 60_000, '5 h 10 min'],
    [2 * 86_400_000 + 3 * 3_600_000 + 59 * 60_000, '2 d 3 h'],
    [4 * 86_400_000, '4 d'],
  ])('says %i ms is %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});
