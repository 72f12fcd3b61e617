/** @jest-environment ../../scripts/jest-host-zone-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { calendarZone, expandCalendar, type Occurrence } from './ics';

/** Sets the host's time zone (the test environment's; undefined: as it was). */
declare function setHostZone(zone: string | undefined): void;

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const window = { from: Date.parse('2026-02-23T00:00:00Z'), to: Date.parse('2026-11-10T00:00:00Z') };
const iso = (o: Occurrence) => ({
  title: o.title,
  start: new Date(o.start).toISOString(),
  end: new Date(o.end).toISOString(),
  ...(o.allDay && { allDay: true }),
});

// The host's own zone must never leak in: the same calendars expand to the same instants on a
// server in UTC and on one in Auckland (a day ahead, and its clocks change the other way).
describe.each(['UTC', 'Pacific/Auckland'])('calendar expansion on a host in %s', (hostZone) => {
  beforeAll(() => setHostZone(hostZone));
  afterAll(() => setHostZone(undefined));

  it('runs with the host in that zone', () => {
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(hostZone);
    expect(new Date('2026-01-01T00:00:00Z').getHours()).toBe(hostZone === 'UTC' ? 0 : 13);
  });

  it('keeps a weekly class at its local time across the change to daylight time, without its EXDATE, with its moved lecture, and not on a holiday', () => {
    const text = fixture('new-york.ics');
    const zone = calendarZone(text, 'UTC');
    expect(zone).toBe('America/New_York');
    const { occurrences, holidays, problems } = expandCalendar(text, window, zone);
    expect(problems).toEqual([]);
    expect(holidays).toEqual(['2026-03-16']);
    expect(occurrences.filter((o) => o.uid.startsWith('econ101')).map(iso)).toEqual([
      { title: 'ECON 101', start: '2026-03-02T15:00:00.000Z', end: '2026-03-02T16:15:00.000Z' },
      // 4 March is an EXDATE; 9 March moved to 13:00 (daylight time from 8 March: UTC−4).
      { title: 'ECON 101 (moved)', start: '2026-03-09T17:00:00.000Z', end: '2026-03-09T18:15:00.000Z' },
      { title: 'ECON 101', start: '2026-03-11T14:00:00.000Z', end: '2026-03-11T15:15:00.000Z' },
      // 16 March is a holiday; 18 March's all-day "Open day" is not one.
      { title: 'ECON 101', start: '2026-03-18T14:00:00.000Z', end: '2026-03-18T15:15:00.000Z' },
    ]);
    expect(occurrences.find((o) => o.title === 'ECON 101 (moved)')?.location).toBe('Hall A 102');
  });

  it('reads all-day events as whole local days', () => {
    const { occurrences } = expandCalendar(fixture('new-york.ics'), window, 'America/New_York');
    expect(occurrences.filter((o) => o.allDay).map(iso)).toEqual([
      {
        title: 'No classes',
        start: '2026-03-16T04:00:00.000Z',
        end: '2026-03-17T04:00:00.000Z',
        allDay: true,
      },
      { title: 'Open day', start: '2026-03-18T04:00:00.000Z', end: '2026-03-19T04:00:00.000Z', allDay: true },
    ]);
  });

  it('reads a skipped time with the offset from before the change, and a repeated one as the first', () => {
    const { occurrences } = expandCalendar(fixture('new-york.ics'), window, 'America/New_York');
    const titled = (title: string) => occurrences.filter((o) => o.title === title).map(iso);
    // 02:30 on 8 March does not exist in New York: it is 03:30 daylight time.
    expect(titled('Skipped hour')).toEqual([
      { title: 'Skipped hour', start: '2026-03-08T07:30:00.000Z', end: '2026-03-08T08:00:00.000Z' },
    ]);
    // 01:30 on 1 November happens twice: the first, in daylight time.
    expect(titled('Repeated hour')).toEqual([
      { title: 'Repeated hour', start: '2026-11-01T05:30:00.000Z', end: '2026-11-01T05:45:00.000Z' },
    ]);
    expect(titled('PHYS 210')).toEqual([
      { title: 'PHYS 210', start: '2026-10-27T12:00:00.000Z', end: '2026-10-27T13:00:00.000Z' },
      { title: 'PHYS 210', start: '2026-11-03T13:00:00.000Z', end: '2026-11-03T14:00:00.000Z' },
    ]);
  });

  it('reads the Windows time-zone names Microsoft 365 writes, and reports the events it cannot read by line', () => {
    const { occurrences, problems } = expandCalendar(fixture('microsoft-365.ics'), window, 'UTC');
    expect(occurrences.map(iso)).toEqual([
      { title: 'HIST 150', start: '2026-03-03T14:00:00.000Z', end: '2026-03-03T15:15:00.000Z' },
      { title: 'HIST 150', start: '2026-03-05T14:00:00.000Z', end: '2026-03-05T15:15:00.000Z' },
      { title: 'HIST 150', start: '2026-03-12T13:00:00.000Z', end: '2026-03-12T14:15:00.000Z' },
    ]);
    expect(problems).toEqual([
      {
        line: 37,
        message: 'DTSTART names the time zone "Mars Standard Time", which is not one this server knows',
      },
      { line: 42, message: 'It has no DTSTART' },
    ]);
  });

  it('expands only the window it is asked for', () => {
    const narrow = { from: Date.parse('2026-03-10T00:00:00Z'), to: Date.parse('2026-03-12T00:00:00Z') };
    const { occurrences } = expandCalendar(fixture('new-york.ics'), narrow, 'America/New_York');
    expect(occurrences.map(iso)).toEqual([
      { title: 'ECON 101', start: '2026-03-11T14:00:00.000Z', end: '2026-03-11T15:15:00.000Z' },
    ]);
  });
});

describe(expandCalendar.name, () => {
  it('says a file that is not a calendar is not one', () => {
    expect(expandCalendar('Room,Start\nA,10:00\n', window, 'UTC').problems).toEqual([
      { line: 1, message: 'This is not an iCalendar file: it does not begin with BEGIN:VCALENDAR' },
    ]);
  });
});
