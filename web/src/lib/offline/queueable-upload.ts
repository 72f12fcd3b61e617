import { newIdempotencyKey } from '../submission-key';
import { type Conflicted, type Queued } from './markers';
import { queueableSave } from './queueable-save';

/** A room's picture fields. */
export type RoomPictureField = 'imageUrl' | 'wiringDiagramUrl' | 'seatingLayoutUrl';

/**
 * A picture for a room chosen while offline (or whose upload found no network): its file kept on
 * the phone (IndexedDB keeps the Blob) and sent, then set on the room, in order with the other
 * changes, under one Idempotency-Key. The room's field is set on the version the person saw
 * (If-Match): a room changed meanwhile is a conflict to settle. Online with nothing waiting, it is
 * sent at once.
 */
export function queueableUpload(
  room: { id: string; name: string; version: number },
  field: RoomPictureField,
  what: string,
  file: File,
): Promise<unknown | Queued | Conflicted> {
  return queueableSave({
    key: newIdempotencyKey(),
    route: 'uploadRoomPicture',
    params: { id: room.id, field },
    body: {},
    ifVersion: room.version,
    file: { blob: file, name: file.name, type: file.type },
    label: `Upload ${what.toLowerCase()} of ${room.name}`,
  });
}
