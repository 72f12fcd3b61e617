import { type HealthState, type StatusCounts } from '@cm/contracts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The banner's sentence, singular where a count is one. */
export const attentionSentence = (devices: number, rooms: number) =>
  `${plural(devices, 'device needs', 'devices need')} attention in ${plural(rooms, 'room', 'rooms')}`;

/** How long something has been down, in its two largest units ("3 d 4 h", "5 min"). */
export function downFor(sinceIso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(sinceIso)) / 60_000));
  if (minutes < 1) return 'less than a minute';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

export type ChipTone = 'danger' | 'warning' | 'neutral';

/** The chips a card shows: only the statuses someone may need to act on, most urgent first. */
export function statusChips(counts: StatusCounts): { label: string; tone: ChipTone }[] {
  const chips: { label: string; tone: ChipTone }[] = [];
  if (counts.inactive > 0) chips.push({ label: `${counts.inactive} offline`, tone: 'danger' });
  if (counts.partial > 0) chips.push({ label: `${counts.partial} partial`, tone: 'warning' });
  if (counts.maintenance > 0) chips.push({ label: `${counts.maintenance} in maintenance`, tone: 'neutral' });
  return chips;
}

/** A chip's reason is the one fault's own words when they fit on it. */
const CHIP_REASON_MAX = 32;

/**
 * A room's fault chip from its equipment's health (a device can answer ping and still be faulty):
 * the one fault's reason when there is one short enough ("Filter warning"), else how many devices
 * report a fault ("2 faults"). Red when any is an error. Null when none is faulty.
 */
export function faultChip(
  equipment: readonly { health?: { state: HealthState; reasons: string[] } | null }[],
): { label: string; tone: 'danger' | 'warning' } | null {
  const faulty = equipment.flatMap((e) =>
    e.health && (e.health.state === 'warning' || e.health.state === 'error') ? [e.health] : [],
  );
  if (faulty.length === 0) return null;
  const tone = faulty.some((h) => h.state === 'error') ? 'danger' : 'warning';
  const [only] = faulty;
  const reason = faulty.length === 1 && only?.reasons.length === 1 ? only.reasons[0] : undefined;
  if (reason && reason.length <= CHIP_REASON_MAX) return { label: reason, tone };
  return { label: plural(faulty.length, 'fault', 'faults'), tone };
}
