import { newIdempotencyKey } from '../submission-key';
import { type Conflicted, type Queued } from './markers';
import { type RoomPictureField } from './outbox';
import { queueableSave } from './queueable-save';

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

/**
 * A room's picture set to one stored already (uploaded online), or removed (`url` null), through
 * the outbox like any edit: sent at once online, on the version the screen shows (If-Match), so a
 * room changed elsewhere meanwhile is a conflict to settle rather than overwritten; kept on the
 * phone offline (a removal tagged on the room) and sent in order later.
 */
export function queueablePicture(
  room: { id: string; name: string; version: number },
  field: RoomPictureField,
  what: string,
  url: string | null,
): Promise<unknown | Queued | Conflicted> {
  return queueableSave({
    key: newIdempotencyKey(),
    route: url === null ? 'removeRoomPicture' : 'uploadRoomPicture',
    params: { id: room.id, field },
    body: { [field]: url },
    ifVersion: room.version,
    label: `${url === null ? 'Remove' : 'Upload'} ${what.toLowerCase()} of ${room.name}`,
  });
}
