import { type QuietHours } from '@cm/contracts';
import { isTeaching, localDayEnd, nextMorning, nextTeachingStart } from './quiet-hours';

const weekdays: QuietHours = {
  days: [1, 2, 3, 4, 5],
  start: '07:30',
  end: '18:00',
  timeZone: 'Europe/Berlin',
  outside: 'digest',
  idleRoomsWait: false,
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

  it("holds a room for the next morning: tomorrow's first teaching minute, Monday's after a Friday", () => {
    const iso = (t: number) => new Date(t).toISOString();
    // Tuesday 11:00 in Berlin: Wednesday 07:30 (06:30 UTC).
    expect(iso(nextMorning(weekdays, Date.parse('2026-11-24T10:00:00Z')))).toBe('2026-11-25T06:30:00.000Z');
    // Friday 15:00: Monday.
    expect(iso(nextMorning(weekdays, Date.parse('2026-11-27T14:00:00Z')))).toBe('2026-11-30T06:30:00.000Z');
  });

  it("ends a local day at the zone's own midnight, across daylight saving time and half-hour zones", () => {
    const iso = (t: number) => new Date(t).toISOString();
    expect(iso(localDayEnd('Europe/Berlin', Date.parse('2026-11-24T10:00:00Z')))).toBe(
      '2026-11-24T23:00:00.000Z',
    );
    // New York's clocks go back on 2026-11-01: that day ends at 05:00 UTC, not 04:00.
    expect(iso(localDayEnd('America/New_York', Date.parse('2026-11-01T12:00:00Z')))).toBe(
      '2026-11-02T05:00:00.000Z',
    );
    expect(iso(localDayEnd('Asia/Kolkata', Date.parse('2026-11-24T10:00:00Z')))).toBe(
      '2026-11-24T18:30:00.000Z',
    );
  });
});
