import { type OutboxEntry, type OutboxRoute } from './outbox';

// What an entry does and to which record: apart from the outbox's sending, so that a card saying
// "Pending delete" carries only this.

/** What an entry does to its record, for the list and the record's card. */
export type EntryAction = 'create' | 'update' | 'delete' | 'upload';
export const actionOf = (entry: Pick<OutboxEntry, 'route'>): EntryAction =>
  entry.route.startsWith('upload')
    ? 'upload'
    : (entry.route.match(/^(create|update|delete)/)![1] as EntryAction);

/** The kind of record an entry's route is about: Building, Room or Equipment. */
const kindOf = (route: OutboxRoute): string =>
  route === 'uploadRoomPicture' ? 'Room' : route.replace(/^(create|update|delete)/, '');

/**
 * The record an entry changes; a create's is its own (no other entry can name it). Edits, deletes
 * and uploads of one record share it: each waits for the ones before it.
 */
export const recordOf = (entry: Pick<OutboxEntry, 'key' | 'route' | 'params'>): string =>
  actionOf(entry) === 'create' ? entry.key : `${kindOf(entry.route)}:${entry.params.id}`;
