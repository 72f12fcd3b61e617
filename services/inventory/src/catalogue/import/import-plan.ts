import {
  type ImportChange,
  IMPORT_CHANGES_BYTES,
  type ImportCounts,
  type ImportError,
  type ImportRow,
} from '@cm/contracts';
import { planBuildings } from './building-plan';
import { planEquipment } from './equipment-plan';
import { fileRecordsOf } from './file-records';
import { type AddressRules, type Changes, type CurrentInventory, type ImportPlan } from './import-records';
import { planRooms } from './room-plan';

export const countsOf = (c: Changes<unknown>): ImportCounts => ({
  create: c.create.length,
  update: c.update.length,
  unchanged: c.unchanged,
});

/**
 * What importing `rows` into `current` would do: buildings, rooms and equipment to create and to
 * update (with their values after the import), how many stay as they are, and every error. Matches
 * by natural keys: a building by name; a room by name within its building; equipment by serial
 * number, else by name within its room. The same plan is previewed and applied.
 */
export function planImport(rows: ImportRow[], current: CurrentInventory, rules: AddressRules): ImportPlan {
  const errors: ImportError[] = [];
  const file = fileRecordsOf(rows, errors);
  const plan: ImportPlan = {
    buildings: { create: [], update: [], unchanged: 0 },
    rooms: { create: [], update: [], unchanged: 0 },
    equipment: { create: [], update: [], unchanged: 0 },
    errors,
  };
  const buildingIds = planBuildings(file.buildings, current.buildings, plan.buildings, errors);
  const roomIds = planRooms(file.rooms, buildingIds, current.rooms, plan.rooms, errors);
  planEquipment(rows, roomIds, current.equipment, rules, plan.equipment, errors);
  errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return plan;
}

/**
 * What an applied plan created and changed, each record with its fields before and after (an
 * update: only those that changed), as many as fit in IMPORT_CHANGES_BYTES of JSON.
 */
export function changesOf(
  plan: ImportPlan,
  current: CurrentInventory,
): { changes: ImportChange[]; changesNotListed: number } {
  const changes: ImportChange[] = [];
  let bytes = 0;
  let changesNotListed = 0;
  const add = (change: ImportChange) => {
    const size = JSON.stringify(change).length;
    if (changesNotListed > 0 || bytes + size > IMPORT_CHANGES_BYTES) changesNotListed++;
    else {
      changes.push(change);
      bytes += size;
    }
  };
  const record = <T extends { id: string }>(
    entityType: ImportChange['entityType'],
    changed: Changes<T>,
    existing: T[],
  ) => {
    for (const { id, ...after } of changed.create)
      add({ entityType, action: 'create', id, before: null, after });
    const byId = new Map(existing.map((r) => [r.id, r]));
    for (const next of changed.update) {
      const was = byId.get(next.id) as Record<string, unknown> | undefined;
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(next)) {
        if (field === 'id' || was?.[field] === value) continue;
        before[field] = was?.[field] ?? null;
        after[field] = value;
      }
      add({ entityType, action: 'update', id: next.id, before, after });
    }
  };
  record('building', plan.buildings, current.buildings);
  record('room', plan.rooms, current.rooms);
  record('equipment', plan.equipment, current.equipment);
  return { changes, changesNotListed };
}
