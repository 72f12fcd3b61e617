import { type MaintenanceWindow } from '@cm/contracts';

const MINUTE = 60_000;

const dateTime = { dateStyle: 'medium', timeStyle: 'short' } as const;

/** "Nov 24, 2026, 9:00 PM" in the phone's language and time zone. */
export const formatWhen = (iso: string): string => new Date(iso).toLocaleString(undefined, dateTime);

/**
 * "Nov 24, 2026, 8:00 – 10:00 PM": a window's start and end, the date said once when it is the
 * same (the phone's language decides how).
 */
export function formatSpan(startIso: string, endIso: string): string {
  const format = new Intl.DateTimeFormat(undefined, dateTime);
  const [start, end] = [new Date(startIso), new Date(endIso)];
  // Safari before 14.1 has no formatRange.
  return typeof format.formatRange === 'function'
    ? format.formatRange(start, end)
    : `${format.format(start)} – ${format.format(end)}`;
}

export const isActive = (w: MaintenanceWindow, now: number) =>
  Date.parse(w.startsAt) <= now && Date.parse(w.endsAt) > now;

/** The windows that have not ended, those in force first, each group by start. */
export function currentWindows(windows: readonly MaintenanceWindow[], now: number) {
  const open = windows.filter((w) => Date.parse(w.endsAt) > now);
  const byStart = (a: MaintenanceWindow, b: MaintenanceWindow) =>
    Date.parse(a.startsAt) - Date.parse(b.startsAt);
  return {
    active: open.filter((w) => isActive(w, now)).sort(byStart),
    upcoming: open.filter((w) => !isActive(w, now)).sort(byStart),
  };
}

/**
 * Until when the windows keep something in maintenance without a break from `now` on: the end of
 * the latest one in force, carried on by any that begins before it ends. Null when none is in force.
 */
export function maintenanceUntil(windows: readonly MaintenanceWindow[], now: number): number | null {
  let until: number | null = null;
  for (const w of windows) if (isActive(w, now)) until = Math.max(until ?? 0, Date.parse(w.endsAt));
  if (until === null) return null;
  for (let extended = true; extended;) {
    extended = false;
    for (const w of windows) {
      const start = Date.parse(w.startsAt);
      const end = Date.parse(w.endsAt);
      if (start <= until && end > until) {
        until = end;
        extended = true;
      }
    }
  }
  return until;
}

/** A `datetime-local` input's value for an instant, in the phone's time zone, to the minute. */
export function localInputValue(ms: number): string {
  const d = new Date(Math.floor(ms / MINUTE) * MINUTE);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant a `datetime-local` value names in the phone's time zone, as ISO; undefined when empty or not a time. */
export function isoOfLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
