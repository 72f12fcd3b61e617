import { type ScheduleOccurrence } from '@cm/contracts';

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * What a room's card says of its timetable: "In use until 11:15" while a class is on (until the
 * last of back-to-back classes ends), else "Next class 10:00–11:15, ECON 101" (with the day when
 * it is not today), else nothing. Times in the phone's own zone.
 */
export function nextClassText(classes: ScheduleOccurrence[], now: number): string | null {
  const sorted = [...classes].sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  const current = sorted.filter((c) => Date.parse(c.start) <= now && Date.parse(c.end) > now);
  if (current.length > 0) {
    let until = Math.max(...current.map((c) => Date.parse(c.end)));
    for (const c of sorted)
      if (Date.parse(c.start) <= until && Date.parse(c.end) > until) until = Date.parse(c.end);
    return `In use until ${clock(new Date(until).toISOString())}`;
  }
  const next = sorted.find((c) => Date.parse(c.start) > now);
  if (!next) return null;
  const start = new Date(next.start);
  const day = sameDay(start, new Date(now))
    ? ''
    : `${start.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })} `;
  const title = next.title ? `, ${next.title}` : '';
  return `Next class ${day}${clock(next.start)}–${clock(next.end)}${title}`;
}

/**
 * Where a room goes when rooms are sorted by their next class: the start of the class in it now
 * or of its next one (rooms in use first, then the soonest class), Infinity for a room without one.
 */
export function nextClassOrder(classes: ScheduleOccurrence[], now: number): number {
  const starts = classes.filter((c) => Date.parse(c.end) > now).map((c) => Date.parse(c.start));
  return starts.length ? Math.min(...starts) : Infinity;
}
