import { findIana } from 'windows-iana';

/** A wall-clock time with no zone: what a calendar writes before its TZID says where. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const HOUR_MS = 3_600_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/** The zone's offset from UTC at an instant, in milliseconds (east positive). */
export function offsetAt(zone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatter(zone).formatToParts(new Date(instant)))
    if (type !== 'literal') parts[type] = Number(value);
  const local = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return local - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a wall-clock time names in a zone, as RFC 5545 reads it (3.3.5): a time that occurs
 * twice when the clocks go back is the first of the two; one that the clocks skip when they go
 * forward is read with the offset from before the change (02:30 on a spring-forward night in New
 * York is 03:30 daylight time). Assumes one change at most within a day of the time.
 */
export function wallTimeToInstant(wall: WallTime, zone: string): number {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  const before = offsetAt(zone, asUtc - 24 * HOUR_MS);
  const after = offsetAt(zone, asUtc + 24 * HOUR_MS);
  const valid = [asUtc - before, asUtc - after].filter(
    (instant, i) => offsetAt(zone, instant) === (i === 0 ? before : after),
  );
  return valid.length ? Math.min(...valid) : asUtc - before;
}

/** The wall-clock time of an instant in a zone. */
export function instantToWallTime(instant: number, zone: string): WallTime {
  const local = new Date(instant + offsetAt(zone, instant));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

function isIanaZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * The IANA zone a calendar's TZID names: an IANA name as it is, a Windows name (as Microsoft 365
 * and Exchange write them: "Eastern Standard Time") by the Unicode CLDR's table, and the
 * "/mozilla.org/…/America/New_York"-style prefixes some tools add; null when it names none.
 */
export function ianaZoneOf(tzid: string): string | null {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (isIanaZone(name)) return name;
  const windows = findIana(name);
  if (windows.length) return windows[0];
  const suffix = name.match(/([A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)$/)?.[1];
  return suffix && isIanaZone(suffix) ? suffix : null;
}
