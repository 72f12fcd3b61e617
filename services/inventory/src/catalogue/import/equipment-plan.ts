import { randomUUID } from 'node:crypto';
import {
  deepProbeRangeMessage,
  defaultProbeFor,
  type ImportError,
  importError,
  type ImportRow,
} from '@cm/contracts';
import {
  type AddressRules,
  addChange,
  type Changes,
  type EquipmentRecord,
  groupBy,
  key,
  pick,
} from './import-records';

type FileEquipment = NonNullable<ImportRow['equipment']>;

/** Where the file's equipment lines are matched to the stored equipment. */
interface Matching {
  bySerial: Map<string, EquipmentRecord[]>;
  byRoomAndName: Map<string, EquipmentRecord[]>;
  /** The line of each equipment the file names, by serial number or by room and name. */
  fileKeys: Map<string, number>;
  /** The line that matched each stored equipment. */
  matched: Map<string, number>;
}

/**
 * The file's equipment matched to the stored equipment by serial number, else by name within its
 * room (a line whose room is in error is left out), its address judged by `rules`, and the
 * campus's monitored addresses after the import counted against `rules.max`.
 */
export function planEquipment(
  rows: ImportRow[],
  roomIds: Map<string, string>,
  current: EquipmentRecord[],
  rules: AddressRules,
  changes: Changes<EquipmentRecord>,
  errors: ImportError[],
): void {
  const matching: Matching = {
    bySerial: groupBy(
      current.filter((e) => e.serialNumber),
      (e) => e.serialNumber!,
    ),
    byRoomAndName: groupBy(current, (e) => key(e.roomId, e.name)),
    fileKeys: new Map(),
    matched: new Map(),
  };
  const addressesBefore = new Map(current.map((e) => [e.id, e.ipAddress]));
  const addressesAfter = new Map<string, string | null>();
  for (const row of rows) {
    const e = row.equipment;
    if (!e || !row.room) continue;
    const roomId = roomIds.get(key(row.building.name, row.room.name));
    if (!roomId) continue;
    const place = `room "${row.room.name}" of "${row.building.name}"`;
    const stored = storedOf(row.line, e, roomId, place, matching);
    if ('error' in stored) {
      errors.push(stored.error);
      continue;
    }
    const was = stored.was;
    const next: EquipmentRecord = {
      id: was?.id ?? randomUUID(),
      roomId,
      name: e.name,
      model: pick(e.model, was?.model ?? null),
      serialNumber: pick(e.serialNumber, was?.serialNumber ?? null),
      ipAddress: pick(e.ipAddress, was?.ipAddress ?? null),
      status: was ? was.status : (e.status ?? 'active'),
      notes: pick(e.notes, was?.notes ?? null),
      imageUrl: pick(e.imageUrl, was?.imageUrl ?? null),
      type: pick(e.type, was?.type ?? null),
      probeType: 'icmp',
      probePort: pick(e.probePort, was?.probePort ?? null),
    };
    next.probeType = probeTypeOf(e, was, next);
    if (next.ipAddress && next.ipAddress !== was?.ipAddress) {
      const problem = rules.problem(next.ipAddress);
      if (problem) {
        errors.push(importError(row.line, 'equipment_ip_address', problem));
        continue;
      }
    }
    const probeProblem = probeProblemOf(row.line, e, next);
    if (probeProblem) {
      errors.push(probeProblem);
      continue;
    }
    addressesAfter.set(next.id, next.ipAddress);
    addChange(changes, was, next);
  }

  const total = [...new Map([...addressesBefore, ...addressesAfter]).values()].reduce(
    (sum, ip) => sum + (ip ? rules.count(ip) : 0),
    0,
  );
  if (total > rules.max) {
    const n = (v: number) => v.toLocaleString('en-US');
    errors.push(
      importError(
        null,
        'equipment_ip_address',
        `After this import the campus would have ${n(total)} monitored addresses; at most ${n(rules.max)} may be monitored. Import fewer addresses, or ask an administrator to raise INVENTORY_MAX_MONITORED_ADDRESSES.`,
      ),
    );
  }
}

/**
 * The probe the file gives (an empty cell: ping only), else the stored one, else for new
 * equipment its preset's or type's (ping for a range, which cannot be probed deeper).
 */
function probeTypeOf(e: FileEquipment, was: EquipmentRecord | undefined, next: EquipmentRecord) {
  if (e.probeType !== undefined) return e.probeType ?? 'icmp';
  if (was) return was.probeType;
  return next.ipAddress?.includes('-') ? 'icmp' : defaultProbeFor(next).type;
}

function probeProblemOf(line: number, e: FileEquipment, next: EquipmentRecord): ImportError | null {
  if (next.probeType !== 'icmp' && next.ipAddress?.includes('-'))
    return importError(
      line,
      'equipment_probe_type',
      `${deepProbeRangeMessage}: leave equipment_probe_type empty for a range.`,
    );
  if (next.probeType === 'icmp' && e.probePort)
    return importError(
      line,
      'equipment_probe_port',
      'A probe port needs a probe other than icmp: give equipment_probe_type too, or leave the port empty.',
    );
  return null;
}

/**
 * The stored equipment a line names (none: it is new), or why the line cannot be imported: the
 * file names the equipment twice, or names several stored ones, or one another line matched.
 */
function storedOf(
  line: number,
  e: FileEquipment,
  roomId: string,
  place: string,
  m: Matching,
): { was: EquipmentRecord | undefined } | { error: ImportError } {
  const fileKey = e.serialNumber ? `serial ${e.serialNumber}` : key(roomId, e.name);
  const twin = m.fileKeys.get(fileKey);
  if (twin !== undefined) {
    const what = e.serialNumber ? `serial number "${e.serialNumber}"` : `"${e.name}" in ${place}`;
    return {
      error: importError(
        line,
        e.serialNumber ? 'equipment_serial_number' : 'equipment_name',
        `The same equipment (${what}) as on line ${twin}. Give each equipment one line: remove one of them, or tell them apart by serial number.`,
      ),
    };
  }
  m.fileKeys.set(fileKey, line);

  let found = e.serialNumber ? (m.bySerial.get(e.serialNumber) ?? []) : [];
  if (found.length > 1) {
    return {
      error: importError(
        line,
        'equipment_serial_number',
        `${found.length} equipment have the serial number "${e.serialNumber}". Correct their serial numbers in the app so that the file names one of them.`,
      ),
    };
  }
  if (found.length === 0) {
    const named = m.byRoomAndName.get(key(roomId, e.name)) ?? [];
    // A serial number tells equipment apart: one with a different serial number is another device.
    found = e.serialNumber ? named.filter((n) => !n.serialNumber) : named;
    if (found.length > 1) {
      return {
        error: importError(
          line,
          'equipment_name',
          `${found.length} equipment in ${place} are named "${e.name}". Give this line a serial number, or rename them in the app.`,
        ),
      };
    }
  }
  const was = found[0];
  if (was) {
    const other = m.matched.get(was.id);
    if (other !== undefined) {
      return {
        error: importError(
          line,
          'equipment_name',
          `This line and line ${other} both name the equipment "${was.name}". Give each equipment one line.`,
        ),
      };
    }
    m.matched.set(was.id, line);
  }
  return { was };
}
