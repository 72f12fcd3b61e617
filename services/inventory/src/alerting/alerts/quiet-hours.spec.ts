import { type QuietHours } from '@cm/contracts';
import { isTeaching, nextTeachingStart } from './quiet-hours';

const weekdays: QuietHours = {
  days: [1, 2, 3, 4, 5],
  start: '07:30',
  end: '18:00',
  timeZone: 'Europe/Berlin',
  outside: 'digest',
};

describe('teaching hours', () => {
  it("reads the clock in the building's time zone", () => {
    // Tuesday 2026-11-24, 06:45 UTC is 07:45 in Berlin (winter time).
    expect(isTeaching(weekdays, Date.parse('2026-11-24T06:45:00Z'))).toBe(true);
    expect(isTeaching(weekdays, Date.parse('2026-11-24T06:15:00Z'))).toBe(false);
    // 18:00 is the end, not in it.
    expect(isTeaching(weekdays, Date.parse('2026-11-24T17:00:00Z'))).toBe(false);
    // Saturday.
    expect(isTeaching(weekdays, Date.parse('2026-11-28T10:00:00Z'))).toBe(false);
  });

  it('sends a digest at the next start: the next morning, or Monday after a Friday evening', () => {
    expect(new Date(nextTeachingStart(weekdays, Date.parse('2026-11-24T20:00:00Z'))).toISOString()).toBe(
      '2026-11-25T06:30:00.000Z',
    );
    expect(new Date(nextTeachingStart(weekdays, Date.parse('2026-11-27T17:30:00Z'))).toISOString()).toBe(
      '2026-11-30T06:30:00.000Z',
    );
  });

  it('follows daylight saving time: 07:30 in Berlin is 05:30 UTC in summer', () => {
    expect(new Date(nextTeachingStart(weekdays, Date.parse('2026-06-30T20:00:00Z'))).toISOString()).toBe(
      '2026-07-01T05:30:00.000Z',
    );
  });
});
