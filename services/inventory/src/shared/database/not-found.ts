import { ErrorCode } from '@cm/contracts';
import { AppError } from '@cm/platform';

/** What a person reads when an id names nothing (deleted meanwhile, or a stale link). */
export const notFound = {
  building: (id: string) =>
    new AppError(
      ErrorCode.BUILDING_NOT_FOUND,
      `No building with id ${id}. It may have been deleted; reload the list.`,
    ),
  room: (id: string) =>
    new AppError(
      ErrorCode.ROOM_NOT_FOUND,
      `No room with id ${id}. It may have been deleted; reload the list.`,
    ),
  equipment: (id: string) =>
    new AppError(
      ErrorCode.EQUIPMENT_NOT_FOUND,
      `No equipment with id ${id}. It may have been deleted; reload the room.`,
    ),
  maintenanceWindow: (id: string) =>
    new AppError(
      ErrorCode.MAINTENANCE_WINDOW_NOT_FOUND,
      `Maintenance window not found: no window has id ${id}. It may have been deleted, or its building, room or equipment; reload the list.`,
    ),
};

/** The row, or the not-found error of its kind. */
export function found<T>(row: T | null | undefined, error: () => AppError): T {
  if (row === null || row === undefined) throw error();
  return row;
}
