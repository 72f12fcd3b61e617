import { newIdempotencyKey } from '../submission-key';
import { type Conflicted, type Queued } from './markers';
import { type OutboxRoute } from './outbox';
import { queueableSave } from './queueable-save';

/** A delete the outbox can hold, and what it deletes. */
export type DeleteRoute = Extract<OutboxRoute, `delete${string}`>;
export interface DeletedRecord {
  id: string;
  /** The version the person saw when they confirmed: a record changed since is a conflict. */
  version: number;
  name: string;
}

const nouns: Record<DeleteRoute, string> = {
  deleteBuilding: 'building',
  deleteRoom: 'room',
  deleteEquipment: 'equipment',
};

/**
 * A confirmed delete, through the outbox like a save: sent at once online (with If-Match), kept
 * on the phone offline and sent in order later. What is gone already counts as deleted.
 */
export function queueableDelete(
  route: DeleteRoute,
  record: DeletedRecord,
): Promise<unknown | Queued | Conflicted> {
  return queueableSave({
    key: newIdempotencyKey(),
    route,
    params: { id: record.id },
    body: {},
    ifVersion: record.version,
    label: `Delete ${nouns[route]} ${record.name}`,
  });
}
