// What an entry does and to which record: apart from the outbox's sending, so that a card saying
// "Pending delete" carries only this.

/**
 * The saves the outbox can hold: creates, edits and deletes of buildings, rooms and equipment,
 * and a picture of a room (its photo, wiring diagram or seating layout) uploaded or removed.
 */
export type OutboxRoute =
  | 'createBuilding'
  | 'updateBuilding'
  | 'deleteBuilding'
  | 'createRoom'
  | 'updateRoom'
  | 'deleteRoom'
  | 'createEquipment'
  | 'updateEquipment'
  | 'deleteEquipment'
  | 'uploadRoomPicture'
  | 'removeRoomPicture';

/** What of an entry says what it does and to which record. */
interface EntryTarget {
  key: string;
  route: OutboxRoute;
  params: Record<string, string>;
}

/** What an entry does to its record, for the list and the record's card. */
export type EntryAction = 'create' | 'update' | 'delete' | 'upload' | 'remove';
export const actionOf = (entry: Pick<EntryTarget, 'route'>): EntryAction =>
  entry.route.match(/^(create|update|delete|upload|remove)/)![1] as EntryAction;

/** The kind of record an entry's route is about: Building, Room or Equipment. */
const kindOf = (route: OutboxRoute): string =>
  route.endsWith('RoomPicture') ? 'Room' : route.replace(/^(create|update|delete)/, '');

/**
 * The record an entry changes; a create's is its own (no other entry can name it). Edits, deletes,
 * uploads and removals of one record share it: each waits for the ones before it.
 */
export const recordOf = (entry: EntryTarget): string =>
  actionOf(entry) === 'create' ? entry.key : `${kindOf(entry.route)}:${entry.params.id}`;
