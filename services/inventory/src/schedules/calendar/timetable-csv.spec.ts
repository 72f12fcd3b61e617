import { readTimetableCsv } from './timetable-csv';

const at = (o: { start: number; end: number }) => [
  new Date(o.start).toISOString(),
  new Date(o.end).toISOString(),
];

describe(readTimetableCsv.name, () => {
  it('reads each row as a class meeting in the campus zone, the columns by their headings in any order', () => {
    const csv = [
      'Event Name,Start Date,Start Time,End Time,Room',
      'ECON 101,3/6/2026,10:00 AM,11:15 AM,Hall A 101',
      // After the change to daylight time: the same local time is an hour earlier in UTC.
      'ECON 101,3/9/2026,10:00 AM,11:15 AM,Hall A 101',
      '"HIST 150, section 2",2026-03-09,13:00,14:15,Hall B 2',
    ].join('\r\n');
    const { occurrences, problems } = readTimetableCsv(csv, 'America/New_York');
    expect(problems).toEqual([]);
    expect(occurrences.map((o) => [o.title, o.location, ...at(o)])).toEqual([
      ['ECON 101', 'Hall A 101', '2026-03-06T15:00:00.000Z', '2026-03-06T16:15:00.000Z'],
      ['ECON 101', 'Hall A 101', '2026-03-09T14:00:00.000Z', '2026-03-09T15:15:00.000Z'],
      ['HIST 150, section 2', 'Hall B 2', '2026-03-09T17:00:00.000Z', '2026-03-09T18:15:00.000Z'],
    ]);
  });

  it('reports each row it cannot read by its line and reads the others', () => {
    const csv = [
      'Location,Title,Date,Start,End',
      'Hall A 101,ECON 101,2026-02-30,10:00,11:15',
      ',ECON 101,2026-03-02,10:00,11:15',
      'Hall A 101,ECON 101,2026-03-02,10:00,9:00',
      'Hall A 101,ECON 101,2026-03-02,13:00 PM,14:00',
      '',
      'Hall A 101,ECON 101,2026-03-02,10:00,11:15',
    ].join('\n');
    const { occurrences, problems } = readTimetableCsv(csv, 'America/New_York');
    expect(problems).toEqual([
      { line: 2, message: 'Date "2026-02-30" is not a date (2026-03-02 or 3/2/2026)' },
      { line: 3, message: 'Location is empty' },
      { line: 4, message: 'It ends (9:00) before it starts (10:00)' },
      { line: 5, message: 'Start "13:00 PM" is not a time (10:00 or 10:00 AM)' },
    ]);
    expect(occurrences).toHaveLength(1);
  });

  it('says which columns the first line must name', () => {
    expect(readTimetableCsv('Room,When\nHall A,10:00\n', 'UTC').problems).toEqual([
      {
        line: 1,
        message:
          'The first line must name the columns Location, Title, Date, Start and End; missing: Title, Date, Start, End',
      },
    ]);
  });
});
