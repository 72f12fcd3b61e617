import { type MaintenanceWindow } from '@cm/contracts';
import { currentWindows, formatSpan, isoOfLocalInput, localInputValue, maintenanceUntil } from './windows';

const HOUR = 3_600_000;
const now = Date.parse('2026-11-24T12:00:00Z');
const at = (hours: number) => new Date(now + hours * HOUR).toISOString();

let next = 0;
const windowOf = (startHours: number, endHours: number): MaintenanceWindow => ({
  id: `00000000-0000-4000-8000-${String(++next).padStart(12, '0')}`,
  buildingId: null,
  roomId: '00000000-0000-4000-8000-000000000100',
  equipmentId: null,
  targetName: '204',
  startsAt: at(startHours),
  endsAt: at(endHours),
  reason: 'Lamp',
});

describe(maintenanceUntil.name, () => {
  it('is null when no window is in force, even with one about to begin', () => {
    expect(maintenanceUntil([windowOf(1, 3), windowOf(-3, -1)], now)).toBeNull();
  });

  it('is the end of the latest window in force', () => {
    expect(maintenanceUntil([windowOf(-1, 2), windowOf(-2, 4)], now)).toBe(now + 4 * HOUR);
  });

  it('carries on through windows that follow without a break, and stops at a gap', () => {
    const chained = [windowOf(-1, 2), windowOf(2, 5), windowOf(4, 8), windowOf(9, 10)];
    expect(maintenanceUntil(chained, now)).toBe(now + 8 * HOUR);
  });

  it('counts a window from its first moment to just before its end', () => {
    expect(maintenanceUntil([windowOf(0, 1)], now)).toBe(now + HOUR);
    expect(maintenanceUntil([windowOf(-1, 0)], now)).toBeNull();
  });
});

describe(currentWindows.name, () => {
  it('puts those in force first, then those to come, each by start, and drops the ended', () => {
    const ended = windowOf(-5, -1);
    const later = windowOf(5, 6);
    const soon = windowOf(1, 2);
    const long = windowOf(-10, 10);
    const short = windowOf(-1, 1);
    expect(currentWindows([ended, later, short, soon, long], now)).toEqual({
      active: [long, short],
      upcoming: [soon, later],
    });
  });
});

describe(localInputValue.name, () => {
  it('round-trips through the input to the same minute', () => {
    const ms = Date.parse('2026-03-29T01:30:45.123Z');
    expect(isoOfLocalInput(localInputValue(ms))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('answers undefined for an empty input', () => {
    expect(isoOfLocalInput('')).toBeUndefined();
  });
});

describe(formatSpan.name, () => {
  it('says the date once for a window within one day, and both dates otherwise', () => {
    // 12:00 and 13:00 UTC fall on one day in every time zone.
    const sameDay = formatSpan('2026-11-24T12:00:00Z', '2026-11-24T13:00:00Z');
    const twoDays = formatSpan('2026-11-24T08:00:00Z', '2026-11-26T10:00:00Z');
    const year = (text: string) => text.split('2026').length - 1;
    expect(year(sameDay)).toBe(1);
    expect(year(twoDays)).toBe(2);
  });
});
