import { parse } from 'csv-parse/sync';
import { type CalendarProblem, type Occurrence } from './ics';
import { type WallTime, wallTimeToInstant } from './zoned-time';

/**
 * A timetable as CSV, one row per class meeting, as 25Live and timetabling tools export it
 * (docs/operations.md has an example). Columns by their heading, in any order, any case:
 * Location (or Room, Space), Title (or Event Name, Name), Date (or Start Date), Start (or Start
 * Time), End (or End Time). Dates as 2026-03-02 or 3/2/2026; times as 10:00, 13:15 or 1:15 PM.
 */
const columns = {
  location: ['location', 'room', 'space'],
  title: ['title', 'event name', 'name', 'summary'],
  date: ['date', 'start date'],
  start: ['start', 'start time'],
  end: ['end', 'end time'],
} as const;
type Column = keyof typeof columns;

export interface ReadTimetable {
  occurrences: Occurrence[];
  problems: CalendarProblem[];
}

function readDate(text: string): Pick<WallTime, 'year' | 'month' | 'day'> | null {
  const iso = text.match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
  const us = text.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  const [year, month, day] = iso
    ? [iso[1], iso[2], iso[3]].map(Number)
    : us
      ? [us[3], us[1], us[2]].map(Number)
      : [NaN, NaN, NaN];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? { year, month, day } : null;
}

function readTime(text: string): Pick<WallTime, 'hour' | 'minute'> | null {
  const match = text.trim().match(/^(\d{1,2}):(\d{2})(?::00)?\s*([AaPp][Mm])?$/);
  if (!match) return null;
  let hour = Number(match[1]);
  const minute = Number(match[2]);
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hour < 1 || hour > 12) return null;
    hour = (hour % 12) + (half === 'pm' ? 12 : 0);
  }
  return hour < 24 && minute < 60 ? { hour, minute } : null;
}

function headingsOf(header: string[]): Partial<Record<Column, number>> | string {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((heading, index) => {
    const name = heading.trim().toLowerCase();
    for (const [column, names] of Object.entries(columns) as [Column, readonly string[]][])
      if (names.includes(name) && found[column] === undefined) found[column] = index;
  });
  const missing = (Object.keys(columns) as Column[]).filter((column) => found[column] === undefined);
  return missing.length
    ? `The first line must name the columns Location, Title, Date, Start and End; missing: ${missing.map((m) => m[0].toUpperCase() + m.slice(1)).join(', ')}`
    : found;
}

/** One row as a meeting, or what is wrong with it. */
function readRow(
  cells: string[],
  at: Record<Column, number>,
  zone: string,
): Omit<Occurrence, 'uid'> | string {
  const cell = (column: Column) => (cells[at[column]] ?? '').trim();
  if (!cell('location')) return 'Location is empty';
  const date = readDate(cell('date'));
  if (!date) return `Date "${cell('date')}" is not a date (2026-03-02 or 3/2/2026)`;
  const start = readTime(cell('start'));
  if (!start) return `Start "${cell('start')}" is not a time (10:00 or 10:00 AM)`;
  const end = readTime(cell('end'));
  if (!end) return `End "${cell('end')}" is not a time (11:15 or 11:15 AM)`;
  const from = wallTimeToInstant({ ...date, ...start, second: 0 }, zone);
  const to = wallTimeToInstant({ ...date, ...end, second: 0 }, zone);
  if (to <= from) return `It ends (${cell('end')}) before it starts (${cell('start')})`;
  return { title: cell('title'), location: cell('location'), start: from, end: to, allDay: false };
}

/** The meetings of a timetable CSV, times read in `zone`, with what is wrong reported by line. */
export function readTimetableCsv(text: string, zone: string): ReadTimetable {
  let rows: { record: string[]; info: { lines: number } }[];
  try {
    // With each row's line, so a problem is reported where a spreadsheet shows it.
    rows = parse(text.replace(/^\uFEFF/, ''), {
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as typeof rows;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return {
      occurrences: [],
      problems: [{ line, message: `This is not a CSV file: ${(error as Error).message}` }],
    };
  }
  const [header, ...body] = rows;
  const at = headingsOf(header?.record ?? []);
  if (typeof at === 'string') return { occurrences: [], problems: [{ line: 1, message: at }] };
  const occurrences: Occurrence[] = [];
  const problems: CalendarProblem[] = [];
  for (const { record, info } of body) {
    const line = info.lines;
    const read = readRow(record, at as Record<Column, number>, zone);
    if (typeof read === 'string') problems.push({ line, message: read });
    else occurrences.push({ uid: `csv:${read.location}:${read.start}`, ...read });
  }
  return { occurrences: occurrences.sort((a, b) => a.start - b.start), problems };
}
