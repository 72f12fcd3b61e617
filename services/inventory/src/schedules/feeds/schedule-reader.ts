import { SCHEDULE_DAYS_AHEAD, SCHEDULE_PROBLEMS_SHOWN, type ScheduleProblem } from '@cm/contracts';
import { calendarZone, expandCalendar, type Occurrence } from '../calendar/ics';
import { readTimetableCsv } from '../calendar/timetable-csv';

const DAY_MS = 86_400_000;

export interface ReadSchedule {
  format: 'ics' | 'csv';
  /** Timed classes in the window kept: a day back (the class in progress) to 14 days ahead. */
  occurrences: Occurrence[];
  problems: ScheduleProblem[];
  /** Nothing in it could be read: it is not a calendar at all, or every event is broken. */
  unreadable: boolean;
}

/** The window of classes kept at `now`. */
export const keptWindow = (now: Date) => ({
  from: now.getTime() - DAY_MS,
  to: now.getTime() + SCHEDULE_DAYS_AHEAD * DAY_MS,
});

/** iCalendar when it says so, else a timetable CSV. */
export const formatOf = (text: string): 'ics' | 'csv' =>
  /^\uFEFF?\s*BEGIN:VCALENDAR/i.test(text) ? 'ics' : 'csv';

/**
 * A calendar or timetable read into the classes of the kept window. Floating times and CSV times
 * are read in `zone` (a calendar's X-WR-TIMEZONE wins). All-day events are not classes (holidays
 * already took the classes of their days away).
 */
export function readSchedule(text: string, format: 'ics' | 'csv', now: Date, zone: string): ReadSchedule {
  const window = keptWindow(now);
  const read =
    format === 'ics'
      ? expandCalendar(text.replace(/^\uFEFF/, ''), window, calendarZone(text, zone))
      : readTimetableCsv(text, zone);
  const occurrences = read.occurrences.filter((o) => !o.allDay && o.end > window.from && o.start < window.to);
  return {
    format,
    occurrences,
    problems: read.problems.slice(0, SCHEDULE_PROBLEMS_SHOWN),
    // Not a calendar at all, or not one event of it could be read.
    unreadable: read.problems.length > 0 && read.occurrences.length === 0,
  };
}

/** What is wrong, in one line a person can act on: the first problems, each by its line. */
export function problemsText(problems: ScheduleProblem[], total = problems.length): string {
  const shown = problems.slice(0, 3).map((p) => `line ${p.line}: ${p.message}`);
  const more = total > shown.length ? ` (and ${total - shown.length} more)` : '';
  return `${shown.join('; ')}${more}`;
}
