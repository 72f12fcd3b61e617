/** Spec section 2: these floors come first, in this order (below-ground and sub-levels). */
const LEADING_FLOORS = ['LL', 'B3', 'B2', 'B1', 'SB', 'SUB'];
const NUMERIC = /^-?\d+(\.\d+)?$/;

const UNSPECIFIED_FLOOR = 'Unspecified';

export interface FloorGroup<T> {
  /** The floor as entered, or null for rooms with none. */
  floor: string | null;
  heading: string;
  rooms: T[];
}

/** Sort rank of a floor: leading codes, then numbers ascending, then other text alphabetically. */
function rank(floor: string): [number, number, string] {
  const leading = LEADING_FLOORS.indexOf(floor.toUpperCase());
  if (leading >= 0) return [0, leading, ''];
  if (NUMERIC.test(floor)) return [1, Number(floor), ''];
  return [2, 0, floor.toLowerCase()];
}

export function compareFloors(a: string, b: string): number {
  const [ka, na, ta] = rank(a);
  const [kb, nb, tb] = rank(b);
  return ka - kb || na - nb || ta.localeCompare(tb) || a.localeCompare(b);
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });

/** Rooms grouped by floor in the spec's order; rooms without a floor last, under "Unspecified". */
export function groupRoomsByFloor<T extends { name: string; floor: string | null }>(
  rooms: T[],
): FloorGroup<T>[] {
  const groups = new Map<string | null, T[]>();
  for (const room of rooms) {
    const floor = room.floor?.trim() || null;
    const group = groups.get(floor);
    if (group) group.push(room);
    else groups.set(floor, [room]);
  }
  const floors = [...groups.keys()].filter((f): f is string => f !== null).sort(compareFloors);
  const ordered: FloorGroup<T>[] = floors.map((floor) => ({
    floor,
    heading: `Floor ${floor}`,
    rooms: groups.get(floor)!.sort(byName),
  }));
  const unspecified = groups.get(null);
  if (unspecified) ordered.push({ floor: null, heading: UNSPECIFIED_FLOOR, rooms: unspecified.sort(byName) });
  return ordered;
}

export const roomCountLabel = (count: number) => `${count} ${count === 1 ? 'room' : 'rooms'}`;
