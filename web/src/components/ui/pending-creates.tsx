import { type OutboxRoute } from '../../lib/offline/entry-record';
import { type OutboxEntry } from '../../lib/offline/outbox';
import { useOutbox } from '../../lib/offline/outbox-entries';
import { Badge } from './badge';
import { Card } from './card';

type CreateRoute = Extract<OutboxRoute, 'createBuilding' | 'createRoom' | 'createEquipment'>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The records of a list added on this phone and not yet on the server (`route`, under `params`:
 * a building's rooms, a room's equipment), as `match` keeps them (the list's search), in the order
 * they were added.
 */
export function usePendingCreates(
  route: CreateRoute,
  params: Record<string, string> = {},
  match: (fields: { name: string; description: string }) => boolean = () => true,
): OutboxEntry[] {
  return useOutbox().filter(
    (entry) =>
      entry.route === route &&
      Object.entries(params).every(([name, value]) => entry.params[name] === value) &&
      match({ name: text(entry.body.name), description: text(entry.body.description) }),
  );
}

/**
 * A card for each record added on this phone and not yet on the server, above the list it will
 * join: what was typed, and "Pending add" (or "Add refused" with the server's reason, to put right
 * from the waiting changes). It has no screen of its own until the server has it. `heading`: the
 * level of the list's card titles.
 */
export function PendingCreates({
  entries,
  heading: Heading,
}: {
  entries: OutboxEntry[];
  heading: 'h2' | 'h3';
}) {
  if (entries.length === 0) return null;
  return (
    <ul aria-label="Added on this phone" className="space-y-3">
      {entries.map((entry) => {
        const description = text(entry.body.description);
        return (
          <li key={entry.key}>
            <Card className="border-dashed p-4" data-testid="pending-create">
              <Heading className="text-base font-semibold break-words text-slate-900">
                {text(entry.body.name)}
              </Heading>
              {description ? (
                <p className="mt-1 line-clamp-2 text-sm break-words text-slate-600">{description}</p>
              ) : null}
              <Badge variant={entry.state === 'waiting' ? 'warning' : 'danger'} className="mt-2">
                {entry.state === 'waiting' ? 'Pending add' : 'Add refused'}
              </Badge>
              {entry.state !== 'waiting' && entry.reason ? (
                <p className="mt-1 text-sm text-red-700">{entry.reason}</p>
              ) : null}
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
