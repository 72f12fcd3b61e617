import { randomUUID } from 'node:crypto';
import { type ImportError, importError, roomTypes } from '@cm/contracts';
import { type FileRoom } from './file-records';
import { addChange, type Changes, groupBy, key, pick, type RoomRecord } from './import-records';

/**
 * The file's rooms matched by name within their building to those stored (a room of a building
 * in error is left out); answers their ids by the file's key (building name, room name).
 */
export function planRooms(
  file: Map<string, FileRoom>,
  buildingIds: Map<string, string>,
  current: RoomRecord[],
  changes: Changes<RoomRecord>,
  errors: ImportError[],
): Map<string, string> {
  const byKey = groupBy(current, (r) => key(r.buildingId, r.name));
  const ids = new Map<string, string>();
  for (const [k, { building, name, merged }] of file) {
    const buildingId = buildingIds.get(building);
    if (!buildingId) continue;
    const found = byKey.get(key(buildingId, name)) ?? [];
    if (found.length > 1) {
      errors.push(
        importError(
          merged.firstLine,
          'room_name',
          `${found.length} rooms of "${building}" are named "${name}". Rename all but one of them in the app so that the file names one room.`,
        ),
      );
      continue;
    }
    const was = found[0];
    const type = merged.get<string>('type');
    const floor = merged.get<string>('floor');
    if (!was && (!type || !floor)) {
      const column = !type ? 'room_type' : 'room_floor';
      const need = !type ? `a type (one of: ${roomTypes.join(', ')})` : 'a floor (such as 1, 2, LL, B1)';
      errors.push(
        importError(merged.firstLine, column, `Room "${name}" of "${building}" is new and needs ${need}.`),
      );
      continue;
    }
    // Type, floor, capacity and accessibility are required: an empty cell keeps what is stored.
    const next: RoomRecord = {
      id: was?.id ?? randomUUID(),
      buildingId,
      name,
      type: type ?? was!.type,
      floor: floor ?? was!.floor,
      capacity: merged.get<number>('capacity') ?? was?.capacity ?? 0,
      roomSize: pick(merged.get<string>('roomSize'), was?.roomSize ?? null),
      isAdaAccessible: merged.get<0 | 1>('isAdaAccessible') ?? was?.isAdaAccessible ?? 1,
      imageUrl: pick(merged.get<string>('imageUrl'), was?.imageUrl ?? null),
      wiringDiagramUrl: pick(merged.get<string>('wiringDiagramUrl'), was?.wiringDiagramUrl ?? null),
      seatingLayoutUrl: pick(merged.get<string>('seatingLayoutUrl'), was?.seatingLayoutUrl ?? null),
    };
    ids.set(k, next.id);
    addChange(changes, was, next);
  }
  return ids;
}
