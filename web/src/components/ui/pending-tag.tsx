import { actionOf, recordOf } from '../../lib/offline/entry-record';
import { type OutboxEntry } from '../../lib/offline/outbox';
import { useOutbox } from '../../lib/offline/outbox-entries';
import { Badge } from './badge';

type Tagged = 'delete' | 'upload' | 'remove';
const words: Record<Tagged, Record<OutboxEntry['state'], string>> = {
  delete: { waiting: 'Pending delete', conflict: 'Delete: changed elsewhere', refused: 'Delete refused' },
  upload: { waiting: 'Pending upload', conflict: 'Upload: changed elsewhere', refused: 'Upload refused' },
  remove: { waiting: 'Pending removal', conflict: 'Removal: changed elsewhere', refused: 'Removal refused' },
};

/**
 * What a card tags of an entry: a delete, a picture kept on the phone (a building's edit with its
 * photo too), or a room's picture removed.
 */
function tagged(entry: OutboxEntry): Tagged | undefined {
  const action = actionOf(entry);
  if (action === 'delete' || action === 'upload' || action === 'remove') return action;
  return entry.file ? 'upload' : undefined;
}

/**
 * On a record's card: its delete, uploads or picture removals kept on this phone, not yet on the
 * server ("Pending delete", "Pending upload", "Pending removal"), or waiting for the person (open
 * the waiting changes). `record` is "Building:<id>", "Room:<id>" or "Equipment:<id>".
 */
export function PendingTag({ record, className }: { record: string; className?: string }) {
  const kept = useOutbox().filter((entry) => tagged(entry) && recordOf(entry) === record);
  if (kept.length === 0) return null;
  const shown = new Map<string, OutboxEntry['state']>();
  for (const entry of kept) shown.set(words[tagged(entry)!][entry.state], entry.state);
  return (
    <span className={`flex flex-wrap gap-1.5 ${className ?? ''}`} data-testid="pending-tag">
      {[...shown].map(([text, state]) => (
        <Badge key={text} variant={state === 'waiting' ? 'warning' : 'danger'}>
          {text}
        </Badge>
      ))}
    </span>
  );
}
