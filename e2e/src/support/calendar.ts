/** An iCalendar instant in UTC ("20261128T040000Z"): the file says where it is, whatever the server's zone. */
export const icsTime = (t: number) =>
  new Date(t)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export interface CalendarEvent {
  uid: string;
  title: string;
  /** Epoch milliseconds. */
  start: number;
  end: number;
  location?: string;
}

/** An iCalendar file of timed events in UTC, as a timetable's export gives one. */
export function calendarFile(events: CalendarEvent[]): string {
  const stamp = icsTime(Date.now());
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Classroom Monitor e2e//EN',
    ...events.flatMap((e) => [
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART:${icsTime(e.start)}`,
      `DTEND:${icsTime(e.end)}`,
      `SUMMARY:${e.title}`,
      ...(e.location ? [`LOCATION:${e.location}`] : []),
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}
