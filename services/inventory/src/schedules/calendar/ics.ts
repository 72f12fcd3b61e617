import type ICALModule from 'ical.js' with { 'resolution-mode': 'import' };
import { ianaZoneOf, instantToWallTime, type WallTime, wallTimeToInstant } from './zoned-time';

// ical.js's CommonJS build: the package declares its types for its ES module only.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ICAL = require('ical.js') as typeof ICALModule;
type Component = InstanceType<typeof ICAL.Component>;
type Property = InstanceType<typeof ICAL.Property>;
type Time = InstanceType<typeof ICAL.Time>;
type Recur = InstanceType<typeof ICAL.Recur>;
type Duration = InstanceType<typeof ICAL.Duration>;

/** One class (or other event) as it happens: instants in milliseconds since the epoch. */
export interface Occurrence {
  uid: string;
  title: string;
  location: string | null;
  start: number;
  end: number;
  /** A whole day (a DATE value): an event such as a holiday, never a class with a time. */
  allDay: boolean;
}

/** What is wrong with an event of a calendar, by the line its BEGIN:VEVENT is on. */
export interface CalendarProblem {
  line: number;
  message: string;
}

export interface ExpandedCalendar {
  occurrences: Occurrence[];
  /** Days (YYYY-MM-DD, in the calendar's zone) of all-day events marked CATEGORIES:Holiday. */
  holidays: string[];
  problems: CalendarProblem[];
}

export interface Window {
  from: number;
  to: number;
}

/** Recurrences are expanded this far at most, whatever the window: a guard against a rule that never ends. */
const MAX_OCCURRENCES_PER_EVENT = 5000;
const DAY_MS = 86_400_000;

interface EventBlock {
  line: number;
  text: string;
}

/**
 * The VEVENT blocks of a calendar, each with the line it starts on, so that one broken event is
 * reported by its line and the others are still read.
 */
function eventBlocks(text: string): EventBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: EventBlock[] = [];
  let start = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim().toUpperCase();
    if (line === 'BEGIN:VEVENT') start = i;
    else if (line === 'END:VEVENT' && start >= 0) {
      blocks.push({ line: start + 1, text: lines.slice(start, i + 1).join('\r\n') });
      start = -1;
    }
  }
  return blocks;
}

interface ZonedTime {
  wall: WallTime;
  /** An IANA zone, 'UTC', or null for a floating time (read in the calendar's default zone). */
  zone: string | null;
  isDate: boolean;
}

class EventProblem extends Error {}

function zonedTime(property: Property | null, name: string): ZonedTime {
  if (!property) throw new EventProblem(`It has no ${name}`);
  const time = property.getFirstValue() as Time;
  const tzid = property.getParameter('tzid') as string | undefined;
  let zone: string | null = null;
  if (tzid) {
    zone = ianaZoneOf(tzid);
    if (!zone)
      throw new EventProblem(`${name} names the time zone "${tzid}", which is not one this server knows`);
  } else if (time.zone?.tzid === 'UTC') zone = 'UTC';
  const { year, month, day, hour, minute, second, isDate } = time;
  return { wall: { year, month, day, hour, minute, second }, zone, isDate };
}

const instantOf = (time: ZonedTime, defaultZone: string) =>
  wallTimeToInstant(time.wall, time.zone ?? defaultZone);

const dayOf = ({ wall }: ZonedTime) =>
  `${wall.year}-${String(wall.month).padStart(2, '0')}-${String(wall.day).padStart(2, '0')}`;

interface ReadEvent {
  uid: string;
  title: string;
  location: string | null;
  start: ZonedTime;
  /** Its length in milliseconds (a DATE event: whole days). */
  length: number;
  rule: Recur | null;
  extraDates: ZonedTime[];
  excluded: ZonedTime[];
  recurrenceId: ZonedTime | null;
  holiday: boolean;
}

function readEvent(component: Component, defaultZone: string): ReadEvent {
  const start = zonedTime(component.getFirstProperty('dtstart'), 'DTSTART');
  const endProperty = component.getFirstProperty('dtend');
  const duration = component.getFirstPropertyValue('duration') as Duration | null;
  let length: number;
  if (endProperty)
    length = instantOf(zonedTime(endProperty, 'DTEND'), defaultZone) - instantOf(start, defaultZone);
  else if (duration) length = duration.toSeconds() * 1000;
  else length = start.isDate ? DAY_MS : 0;
  if (length < 0) throw new EventProblem('It ends before it starts');
  const times = (name: string) =>
    component.getAllProperties(name).flatMap((property) =>
      property.getValues().map((value) => {
        const single = new ICAL.Property(name);
        const tzid = property.getParameter('tzid');
        if (tzid) single.setParameter('tzid', tzid);
        single.setValue(value as Time);
        return zonedTime(single, name.toUpperCase());
      }),
    );
  const recurrenceIdProperty = component.getFirstProperty('recurrence-id');
  const categories = component.getAllProperties('categories').flatMap((p) => p.getValues().map(String));
  return {
    uid: String(component.getFirstPropertyValue('uid') ?? ''),
    title: String(component.getFirstPropertyValue('summary') ?? '').trim(),
    location: String(component.getFirstPropertyValue('location') ?? '').trim() || null,
    start,
    length,
    rule: (component.getFirstPropertyValue('rrule') as Recur | null) ?? null,
    extraDates: times('rdate'),
    excluded: times('exdate'),
    recurrenceId: recurrenceIdProperty ? zonedTime(recurrenceIdProperty, 'RECURRENCE-ID') : null,
    holiday: start.isDate && categories.some((c) => c.trim().toLowerCase() === 'holiday'),
  };
}

/** Every start of an event's series, as wall-clock times in its own zone, up to `until`. */
function* seriesStarts(event: ReadEvent, until: number, defaultZone: string): Generator<ZonedTime> {
  yield event.start;
  for (const extra of event.extraDates) yield extra;
  if (!event.rule) return;
  const first = ICAL.Time.fromData({ ...event.start.wall, isDate: event.start.isDate });
  const iterator = event.rule.iterator(first);
  iterator.next(); // DTSTART itself, yielded above
  for (
    let n = 0, next = iterator.next();
    next && n < MAX_OCCURRENCES_PER_EVENT;
    n++, next = iterator.next()
  ) {
    const { year, month, day, hour, minute, second } = next;
    const start: ZonedTime = { ...event.start, wall: { year, month, day, hour, minute, second } };
    if (instantOf(start, defaultZone) >= until) return;
    yield start;
  }
}

const seriesKey = (uid: string, instant: number) => `${uid}\u0000${instant}`;

interface LinedEvent {
  event: ReadEvent;
  line: number;
}

function readEvents(
  text: string,
  defaultZone: string,
): { events: LinedEvent[]; problems: CalendarProblem[] } {
  const problems: CalendarProblem[] = [];
  const events: LinedEvent[] = [];
  if (!/^\s*BEGIN:VCALENDAR/i.test(text))
    problems.push({
      line: 1,
      message: 'This is not an iCalendar file: it does not begin with BEGIN:VCALENDAR',
    });
  for (const block of eventBlocks(text)) {
    try {
      const calendar = new ICAL.Component(
        ICAL.parse(`BEGIN:VCALENDAR\r\nVERSION:2.0\r\n${block.text}\r\nEND:VCALENDAR`),
      );
      events.push({
        event: readEvent(calendar.getFirstSubcomponent('vevent')!, defaultZone),
        line: block.line,
      });
    } catch (error) {
      const message =
        error instanceof EventProblem
          ? error.message
          : `This event cannot be read: ${(error as Error).message}`;
      problems.push({ line: block.line, message });
    }
  }
  return { events, problems };
}

/** The zone a calendar gives its floating times (Google writes X-WR-TIMEZONE), or the fallback. */
export function calendarZone(text: string, fallback: string): string {
  const named = text.match(/^X-WR-TIMEZONE:(.+)$/im)?.[1];
  return (named && ianaZoneOf(named)) ?? fallback;
}

/**
 * The occurrences of a calendar's events that overlap a window: recurrences expanded in each
 * event's own zone (so a 10:00 class stays at 10:00 across a change of the clocks), EXDATEs left
 * out, occurrences moved or changed by a RECURRENCE-ID put where they went, and timed events on a
 * day an all-day CATEGORIES:Holiday event covers left out. Floating times are read in `zone`.
 */
export function expandCalendar(text: string, window: Window, zone: string): ExpandedCalendar {
  const { events, problems } = readEvents(text, zone);
  const instant = (time: ZonedTime) => instantOf(time, zone);
  const overrides = new Map<string, ReadEvent>();
  for (const { event } of events)
    if (event.recurrenceId) overrides.set(seriesKey(event.uid, instant(event.recurrenceId)), event);

  const occurrences: Occurrence[] = [];
  const holidays = new Set<string>();
  const place = (event: ReadEvent, series: ReadEvent) => {
    const start = instant(event.start);
    const occurrence: Occurrence = {
      uid: series.uid,
      title: event.title || series.title,
      location: event.location ?? series.location,
      start,
      end: start + event.length,
      allDay: event.start.isDate,
    };
    if (occurrence.end > window.from && occurrence.start < window.to) occurrences.push(occurrence);
  };
  for (const { event } of events) {
    if (event.recurrenceId) continue;
    const excluded = new Set(event.excluded.map(instant));
    // An occurrence moved into the window from beyond it is still found: the series runs on past the window's end by the longest move.
    for (const start of seriesStarts(event, window.to + 366 * DAY_MS, zone)) {
      const at = instant(start);
      if (excluded.has(at)) continue;
      const override = overrides.get(seriesKey(event.uid, at));
      if (override) place(override, event);
      else if (at < window.to) place({ ...event, start }, event);
      if (event.holiday && at < window.to)
        for (let day = 0; day * DAY_MS < Math.max(event.length, 1); day++)
          holidays.add(dayOf({ ...start, wall: addDays(start.wall, day) }));
    }
  }
  const onHoliday = (o: Occurrence) => !o.allDay && holidays.has(localDay(o.start, zone));
  return {
    occurrences: occurrences.filter((o) => !onHoliday(o)).sort((a, b) => a.start - b.start || a.end - b.end),
    holidays: [...holidays].sort(),
    problems,
  };
}

function addDays(wall: WallTime, days: number): WallTime {
  const date = new Date(Date.UTC(wall.year, wall.month - 1, wall.day + days));
  return { ...wall, year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function localDay(instant: number, zone: string): string {
  const wall = instantToWallTime(instant, zone);
  return dayOf({ wall, zone, isDate: true });
}
