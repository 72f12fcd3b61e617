import { calendarDay, lampHoursText, lampUsedPercent, restartedRecently } from './health-text';

describe('health texts', () => {
  it('gives lamp hours against the rated life, and hours alone without one', () => {
    expect(lampHoursText({ hours: 2950, on: true, ratedHours: 3000 })).toBe('2,950 of 3,000 hours');
    expect(lampHoursText({ hours: 1, on: false })).toBe('1 hour');
    expect(lampUsedPercent({ hours: 1500, on: true, ratedHours: 3000 })).toBe(50);
    expect(lampUsedPercent({ hours: 3500, on: true, ratedHours: 3000 })).toBe(100);
    expect(lampUsedPercent({ hours: 1500, on: true })).toBeUndefined();
  });

  it('writes a forecast day as day, short month and year', () => {
    expect(calendarDay('2027-03-12')).toBe('12 Mar 2027');
    expect(calendarDay('2027-12-31')).toBe('31 Dec 2027');
  });

  it('tells a restart within the last 24 hours from an older one', () => {
    const now = Date.parse('2026-05-02T12:00:00Z');
    expect(restartedRecently('2026-05-02T01:00:00Z', now)).toBe(true);
    expect(restartedRecently('2026-05-01T11:00:00Z', now)).toBe(false);
    expect(restartedRecently(undefined, now)).toBe(false);
  });
});
