import {
  defaultProbeFor,
  type ImportError,
  type ProbeSettings,
  probeSettingsSchema,
  type ProbeType,
} from '@cm/contracts';

export interface BuildingRecord {
  id: string;
  name: string;
  description: string | null;
  imageUrl: string | null;
}

export interface RoomRecord {
  id: string;
  buildingId: string;
  name: string;
  type: string;
  floor: string;
  capacity: number;
  roomSize: string | null;
  isAdaAccessible: 0 | 1;
  imageUrl: string | null;
  wiringDiagramUrl: string | null;
  seatingLayoutUrl: string | null;
}

export interface EquipmentRecord {
  id: string;
  roomId: string;
  name: string;
  model: string | null;
  serialNumber: string | null;
  ipAddress: string | null;
  /** Set when the equipment is created; an import never changes the status of existing equipment. */
  status: string;
  notes: string | null;
  imageUrl: string | null;
  type: string | null;
  /** Its probe's type and port (the file's columns); its other probe settings are kept as they are. */
  probeType: ProbeType;
  probePort: number | null;
}

/**
 * The settings a probe is written with when its type is new to the equipment: its preset's (for
 * the probe its preset gives) or its type's defaults, with the record's port.
 */
export function importedProbe(record: EquipmentRecord): ProbeSettings {
  const preset = defaultProbeFor(record);
  const base =
    preset.type === record.probeType ? preset : probeSettingsSchema.parse({ type: record.probeType });
  return record.probePort === null ? base : { ...base, port: record.probePort };
}

/** The inventory as it stands, as the plan needs it. */
export interface CurrentInventory {
  buildings: BuildingRecord[];
  rooms: RoomRecord[];
  equipment: EquipmentRecord[];
}

/** What inventory allows of addresses (its configuration), for the plan to judge the file's. */
export interface AddressRules {
  /** Why the monitor may not ping this address (outside the allowed networks, a range too wide), or null. */
  problem(ipAddress: string): string | null;
  /** How many addresses it counts for (a range, each of its addresses). */
  count(ipAddress: string): number;
  max: number;
}

export interface Changes<T> {
  create: T[];
  update: T[];
  unchanged: number;
}

export interface ImportPlan {
  buildings: Changes<BuildingRecord>;
  rooms: Changes<RoomRecord>;
  equipment: Changes<EquipmentRecord>;
  errors: ImportError[];
}

export const key = (...parts: string[]) => parts.join('\u0000');

export function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = keyOf(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** `value` when the file gives one (null included), else what is stored. */
export const pick = <T>(given: T | null | undefined, current: T): T | null =>
  given === undefined ? current : given;

/** Counts `next` as a record to create (none was stored), to update, or unchanged. */
export function addChange<T extends object>(changes: Changes<T>, was: T | undefined, next: T): void {
  if (!was) changes.create.push(next);
  else if (sameRecord(was, next)) changes.unchanged++;
  else changes.update.push(next);
}

function sameRecord<T extends object>(a: T, b: T): boolean {
  return (Object.keys(a) as (keyof T)[]).every((k) => a[k] === b[k]);
}
