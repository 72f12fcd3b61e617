import { type HealthState, type Problems, type StatusCounts } from '@cm/contracts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The banner's sentence, singular where a count is one. The faults among the devices are named
 * after it ("3 devices need attention in 2 rooms · 2 faults"); without any it reads as before.
 */
export const attentionSentence = (devices: number, rooms: number, faults = 0) =>
  `${plural(devices, 'device needs', 'devices need')} attention in ${plural(rooms, 'room', 'rooms')}` +
  (faults > 0 ? ` · ${plural(faults, 'fault', 'faults')}` : '');

/**
 * What the banner counts: the devices and rooms either offline or faulty, and the faults. A partial
 * device may be in both lists: it and its room count once.
 */
export function attentionCounts(problems: Problems): { devices: number; rooms: number; faults: number } {
  const faults = problems.faults;
  if (!faults || faults.deviceCount === 0) {
    return { devices: problems.deviceCount, rooms: problems.roomCount, faults: 0 };
  }
  const rooms = (list: { buildings: { rooms: { id: string; devices: { id: string }[] }[] }[] }) =>
    list.buildings.flatMap((b) => b.rooms);
  const downRooms = rooms(problems);
  const downRoomIds = new Set(downRooms.map((r) => r.id));
  const downDeviceIds = new Set(downRooms.flatMap((r) => r.devices.map((d) => d.id)));
  const faultRooms = rooms(faults);
  return {
    devices:
      problems.deviceCount +
      faultRooms.flatMap((r) => r.devices).filter((d) => !downDeviceIds.has(d.id)).length,
    rooms:
      problems.roomCount + new Set(faultRooms.map((r) => r.id).filter((id) => !downRoomIds.has(id))).size,
    faults: faults.deviceCount,
  };
}

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
  if (counts.inactive > 0) chips.push({ label: `${counts.inactive} inactive`, tone: 'danger' });
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

/**
 * The chip from the server's count of a room's or building's faulty devices. The count carries
 * neither reasons nor severity: amber, as a warning.
 */
export const faultCountChip = (count: number | undefined): { label: string; tone: 'warning' } | null =>
  count ? { label: plural(count, 'fault', 'faults'), tone: 'warning' } : null;
