import {
  type BuildingHit,
  type EquipmentHit,
  type RoomHit,
  SEARCH_LIMIT,
  SEARCH_MIN_LENGTH,
} from '@cm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Building2, DoorOpen, Monitor } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { SearchInput } from '../../../components/ui/search-input';
import { Skeleton } from '../../../components/ui/skeleton';
import { searchQuery } from '../api/search';
import { statusWord } from '../../../lib/status-words';

/** Typing pauses this long before a search is sent: one call per word, not per key. */
const DEBOUNCE_MS = 250;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function SearchPage() {
  const [text, setText] = useState('');
  const q = useDebounced(text.trim(), DEBOUNCE_MS);
  const ready = q.length >= SEARCH_MIN_LENGTH;
  const results = useQuery({ ...searchQuery(q), enabled: ready, placeholderData: keepPreviousData });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Search</h1>
      <SearchInput
        aria-label="Search everything"
        placeholder="Building, room, model, serial number, address..."
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      {!ready ? (
        <p className="text-sm text-slate-600">
          Type at least {SEARCH_MIN_LENGTH} characters of a name, description, model, serial number, address
          or note.
        </p>
      ) : results.isPending ? (
        <div role="status" aria-busy="true" aria-label="Searching" className="space-y-2">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-16 rounded-xl" />
          ))}
        </div>
      ) : results.isError ? (
        <LoadError what="search results" error={results.error} onRetry={() => results.refetch()} />
      ) : results.data.buildings.items.length +
          results.data.rooms.items.length +
          results.data.equipment.items.length ===
        0 ? (
        <Card className="p-8 text-center text-slate-600">
          Nothing matches &ldquo;{results.data.query}&rdquo;
        </Card>
      ) : (
        <div className="space-y-5" aria-busy={results.isFetching}>
          <Group title="Buildings" more={results.data.buildings.more} items={results.data.buildings.items}>
            {(b: BuildingHit) => (
              <Hit
                key={b.id}
                href={`/buildings/${b.id}/rooms`}
                icon={<Building2 aria-hidden className="h-5 w-5" />}
              >
                <span className="font-medium text-slate-900">{b.name}</span>
                {b.description && (
                  <span className="line-clamp-1 text-sm text-slate-600">{b.description}</span>
                )}
              </Hit>
            )}
          </Group>
          <Group title="Rooms" more={results.data.rooms.more} items={results.data.rooms.items}>
            {(r: RoomHit) => (
              <Hit key={r.id} href={`/rooms/${r.id}`} icon={<DoorOpen aria-hidden className="h-5 w-5" />}>
                <span className="font-medium text-slate-900">{r.name}</span>
                <span className="text-sm text-slate-600">{r.path}</span>
              </Hit>
            )}
          </Group>
          <Group title="Equipment" more={results.data.equipment.more} items={results.data.equipment.items}>
            {(e: EquipmentHit) => (
              <Hit key={e.id} href={`/rooms/${e.roomId}`} icon={<Monitor aria-hidden className="h-5 w-5" />}>
                <span className="font-medium text-slate-900">{e.name}</span>
                <span className="text-sm text-slate-600">{e.path}</span>
                <span className="text-xs text-slate-600">
                  {[e.model, e.serialNumber && `S/N ${e.serialNumber}`, e.ipAddress, statusWord(e.status)]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </Hit>
            )}
          </Group>
        </div>
      )}
    </div>
  );
}

function Group<T>({
  title,
  items,
  more,
  children,
}: {
  title: string;
  items: T[];
  more: boolean;
  children: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <section aria-label={title} className="space-y-2">
      <h2 className="text-sm font-semibold tracking-wide text-slate-600 uppercase">{title}</h2>
      <ul className="space-y-2">{items.map(children)}</ul>
      {more && (
        <p className="text-sm text-slate-600">
          Showing the first {SEARCH_LIMIT}; type more of the name to narrow the list.
        </p>
      )}
    </section>
  );
}

function Hit({ href, icon, children }: { href: string; icon: ReactNode; children: ReactNode }) {
  return (
    <li>
      <Link href={href} className="block">
        <Card className="flex items-start gap-3 p-3 hover:bg-slate-50">
          <span className="mt-0.5 text-brand-700">{icon}</span>
          <span className="flex min-w-0 flex-col">{children}</span>
        </Card>
      </Link>
    </li>
  );
}
