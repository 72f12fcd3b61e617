import { type Lamp, type PowerState } from '@cm/contracts';

const DAY_MS = 24 * 60 * 60 * 1000;

export const powerLabels: Record<PowerState, string> = {
  off: 'Off',
  on: 'On',
  cooling: 'Cooling down',
  warming: 'Warming up',
  standby: 'Standby',
};

const count = (n: number) => n.toLocaleString('en-GB');

/** "1 hour", "2,950 hours". */
export const hoursText = (hours: number) => `${count(hours)} ${hours === 1 ? 'hour' : 'hours'}`;

/** "2,950 of 3,000 hours" against the rated life when it is known, else "2,950 hours". */
export const lampHoursText = (lamp: Lamp) =>
  lamp.ratedHours === undefined
    ? hoursText(lamp.hours)
    : `${count(lamp.hours)} of ${hoursText(lamp.ratedHours)}`;

/** The share of its rated life a lamp has used, 0 to 100; none without a rated life. */
export const lampUsedPercent = (lamp: Lamp): number | undefined =>
  lamp.ratedHours === undefined ? undefined : Math.min(100, (lamp.hours / lamp.ratedHours) * 100);

/** A calendar day (YYYY-MM-DD) as "12 Mar 2027": the same day wherever the reader is. */
export function calendarDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** Whether the device restarted within the 24 hours before `now`. */
export const restartedRecently = (rebootedAt: string | undefined, now: number) =>
  rebootedAt !== undefined && now - Date.parse(rebootedAt) < DAY_MS;
