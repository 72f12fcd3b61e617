import { type QuietHours } from '@cm/contracts';

const weekdays = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MINUTE = 60_000;
/** A week and a day: every teaching hour of a week starts within it. */
const SEARCH_MS = 8 * 24 * 60 * MINUTE;

/** Making a formatter costs far more than using one: one per time zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The weekday (1 Monday … 7 Sunday) and the clock time ("08:05") at `at` in the time zone. */
function localTime(at: number, timeZone: string): { day: number; time: string } {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: weekdays.indexOf(part('weekday')) + 1, time: `${part('hour')}:${part('minute')}` };
}

/** Whether `at` falls in the teaching hours. */
export function isTeaching(hours: QuietHours, at: number): boolean {
  const { day, time } = localTime(at, hours.timeZone);
  return hours.days.includes(day) && time >= hours.start && time < hours.end;
}

/**
 * The next start of the teaching hours after `at` (to the minute), when a digest goes out. Found
 * by walking the clock in the building's zone, so daylight saving time needs no arithmetic.
 */
export function nextTeachingStart(hours: QuietHours, at: number): number {
  const first = Math.ceil(at / MINUTE) * MINUTE;
  for (let t = first; t < first + SEARCH_MS; t += MINUTE) {
    if (isTeaching(hours, t)) return t;
  }
  // Unreachable with at least one day and an end after the start; a day later rather than never.
  return at + 24 * 60 * MINUTE;
}

/** Every time zone's offset is a whole number of quarter hours: local midnights fall on them. */
const QUARTER_HOUR = 15 * MINUTE;

/** When the local day of `at` ends in the time zone (the next local midnight). */
export function localDayEnd(timeZone: string, at: number): number {
  const today = localTime(at, timeZone).day;
  for (let t = Math.floor(at / QUARTER_HOUR) * QUARTER_HOUR + QUARTER_HOUR; ; t += QUARTER_HOUR) {
    if (localTime(t, timeZone).day !== today) return t;
  }
}

/** The first teaching minute of a later day than `at`'s: when a room held for the morning is told. */
export function nextMorning(hours: QuietHours, at: number): number {
  return nextTeachingStart(hours, localDayEnd(hours.timeZone, at));
}
