/** @jest-environment ../../scripts/jest-host-zone-environment.js */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { formatOf, readSchedule } from './schedule-reader';

/** Sets the host's time zone (the test environment's; undefined: as it was). */
declare function setHostZone(zone: string | undefined): void;

const fixture = (name: string) => readFileSync(path.join(__dirname, '../calendar/fixtures', name), 'utf8');
const now = new Date('2026-03-01T12:00:00Z');

describe.each(['UTC', 'Pacific/Auckland'])('reading a schedule on a host in %s', (hostZone) => {
  beforeAll(() => setHostZone(hostZone));
  afterAll(() => setHostZone(undefined));

  it('runs with the host in that zone', () => {
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(hostZone);
    expect(new Date('2026-01-01T00:00:00Z').getHours()).toBe(hostZone === 'UTC' ? 0 : 13);
  });

  it('keeps the timed classes from a day back to 14 days ahead, never an all-day event', () => {
    const text = fixture('new-york.ics');
    const read = readSchedule(text, formatOf(text), now, 'UTC');
    expect(read).toMatchObject({ format: 'ics', problems: [], unreadable: false });
    expect(read.occurrences.map((o) => [o.title, new Date(o.start).toISOString()])).toEqual([
      ['ECON 101', '2026-03-02T15:00:00.000Z'],
      ['Skipped hour', '2026-03-08T07:30:00.000Z'],
      ['ECON 101 (moved)', '2026-03-09T17:00:00.000Z'],
      ['ECON 101', '2026-03-11T14:00:00.000Z'],
    ]);
  });

  it('reads CSV times in the campus zone, and says a file with nothing readable is unreadable', () => {
    const csv = 'Location,Title,Date,Start,End\nHall A 101,ECON 101,3/2/2026,10:00 AM,11:15 AM\n';
    const read = readSchedule(csv, formatOf(csv), now, 'America/New_York');
    expect(read.occurrences.map((o) => new Date(o.start).toISOString())).toEqual([
      '2026-03-02T15:00:00.000Z',
    ]);
    expect(readSchedule('Room,When\n', 'csv', now, 'UTC')).toMatchObject({
      unreadable: true,
      problems: [{ line: 1, message: expect.stringContaining('missing: Title, Date, Start, End') }],
    });
  });
});
