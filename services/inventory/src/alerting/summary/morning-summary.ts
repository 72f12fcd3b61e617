import { type DeliveryContent, type ReadinessSummarySettings } from '@cm/contracts';
import { placeLabel } from '../alerts/alert-rules';

/** A room with classes the rest of the day: its first class, and its devices down now. */
export interface SummaryRoom {
  room: { id: string; name: string };
  building: { id: string; name: string };
  firstStart: string;
  firstTitle: string;
  down: { name: string; address: string | null; status: 'inactive' | 'partial' }[];
}

/** How long after its time a summary still goes out: a replica back from a restart sends a late one. */
export const SUMMARY_GRACE_MINUTES = 120;

const dayParts = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = dayParts.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dayParts.set(timeZone, format);
  }
  return format;
}

/** The local day ("2026-03-02") and minute of the day at `at` in the time zone. */
export function localDay(timeZone: string, at: number): { day: string; minute: number } {
  const parts = formatter(timeZone).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    day: `${part('year')}-${part('month')}-${part('day')}`,
    minute: Number(part('hour')) * 60 + Number(part('minute')),
  };
}

/** The day whose summary is due at `at` ("2026-03-02"), or null: not its time, or long past it. */
export function dueDay(settings: ReadinessSummarySettings, at: number): string | null {
  if (!settings.time || settings.channelIds.length === 0) return null;
  const [h, m] = settings.time.split(':').map(Number);
  const { day, minute } = localDay(settings.timeZone, at);
  const late = minute - (h * 60 + m);
  return late >= 0 && late < SUMMARY_GRACE_MINUTES ? day : null;
}

const clock = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleTimeString('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
const device = (d: SummaryRoom['down'][number]) =>
  `${d.address ? `${d.name} (${d.address})` : d.name} ${d.status === 'inactive' ? 'offline' : 'partly answering'}`;
const rooms = (n: number) => `${n} room${n === 1 ? '' : 's'}`;

/**
 * The morning summary a channel gets: "2 rooms at risk before 09:00 classes" when the first room
 * at risk has its first class at 09:00, each such room with its class and what is down, then how
 * many rooms look ready. Null when no room has a class the rest of the day: nothing to say.
 */
export function summaryMessage(list: SummaryRoom[], day: string, timeZone: string): DeliveryContent | null {
  if (list.length === 0) return null;
  const risky = list.filter((r) => r.down.length > 0);
  const lines = risky.map(
    (r) =>
      `${clock(r.firstStart, timeZone)} ${r.firstTitle} — ${placeLabel(r)}: ${r.down.map(device).join(', ')}`,
  );
  const ready = list.length - risky.length;
  const headline = risky.length
    ? `${rooms(risky.length)} at risk before ${clock(risky[0].firstStart, timeZone)} classes`
    : `All ${rooms(list.length)} with classes today ready`;
  const tail = risky.length ? [`${rooms(ready)} with classes today ready.`] : [];
  return {
    kind: 'readiness.summary',
    subject: `Before class, ${day}: ${headline}`,
    text: [`Before class, ${day} (${timeZone}): ${headline}`, ...lines, ...tail].join('\n'),
    data: { day, atRisk: risky.length, rooms: list.length },
  };
}
