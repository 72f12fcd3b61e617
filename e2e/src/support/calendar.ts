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

/**
 * A room's class schedule from `calendar`, added and its file uploaded through the API with an
 * administrator's session, as Settings → Class schedules does.
 */
export async function addRoomTimetable(
  baseUrl: string,
  cookie: string,
  room: { id: string; name: string },
  calendar: string,
): Promise<void> {
  const created = await fetch(`${baseUrl}/api/schedule-sources`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Room ${room.name}`, roomId: room.id }),
  });
  if (created.status !== 201) throw new Error(`Adding the schedule answered ${created.status}`);
  const { id } = (await created.json()) as { id: string };
  const form = new FormData();
  form.append('file', new Blob([calendar], { type: 'text/calendar' }), 'timetable.ics');
  const uploaded = await fetch(`${baseUrl}/api/schedule-sources/${id}/file`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  if (uploaded.status !== 200) throw new Error(`Uploading the timetable answered ${uploaded.status}`);
}
