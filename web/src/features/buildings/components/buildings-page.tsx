import { type BuildingListItem } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, Plus } from 'lucide-react';
import { memo, useCallback, useEffect, useState } from 'react';
import { Link } from 'wouter';
import { useRememberedText, useScrollMemory } from '../../../lib/remembered';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { SearchInput } from '../../../components/ui/search-input';
import { Tooltip, TooltipProvider } from '../../../components/ui/tooltip';
import { VirtualList } from '../../../components/ui/virtual-list';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { PendingCreates, usePendingCreates } from '../../../components/ui/pending-creates';
import { ProblemsBanner } from '../../../components/health/problems-banner';
import { buildingsQuery, useDeleteBuilding } from '../api/buildings';
import { BuildingCard, BuildingCardSkeletons } from './building-card';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { useRequestedForm } from '../../../lib/offline/requested-form';

// The form's code (the form library, the schemas' checks, uploads) is not needed to see the list:
// it comes once the list is drawn, before Add or Edit is tapped.
const BuildingForm = lazyComponent(
  () => import('./building-form'),
  (m) => m.BuildingForm,
);

// A keystroke in the search redraws only the cards whose building or busy state changed.
const ListedBuildingCard = memo(BuildingCard);

type Mode = { kind: 'list' } | { kind: 'add' } | { kind: 'edit'; building: BuildingListItem };

/**
 * Case-insensitive match on name or description (spec section 2); an empty search matches all.
 * The search is normalised once, not once per building.
 */
function searchMatcher(search: string): (building: { name: string; description: string | null }) => boolean {
  const needle = search.trim().toLowerCase();
  return (building) =>
    !needle ||
    building.name.toLowerCase().includes(needle) ||
    (building.description ?? '').toLowerCase().includes(needle);
}

/** The list or a form; a refused create sent back from the waiting changes opens its form again. */
function useMode() {
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  useRequestedForm(draftKeyOf('building', undefined), () => setMode({ kind: 'add' }));
  return [mode, setMode] as const;
}

export function BuildingsPage() {
  const [mode, setMode] = useMode();
  // Going to a building and back finds the list as it was left: same search, same place.
  const [search, setSearch] = useRememberedText('buildings.search');
  const buildings = useQuery(buildingsQuery);
  const remove = useDeleteBuilding();
  useScrollMemory('buildings.list', mode.kind === 'list' && buildings.isSuccess);
  // Once the list is drawn: the form's code brings zod, whose running would hold back the first
  // cards on a slow phone.
  const listed = buildings.isSuccess;
  useEffect(() => {
    if (listed) BuildingForm.preload();
  }, [listed]);
  const { mutate } = remove;
  const confirmDelete = useCallback(
    (building: BuildingListItem) => {
      const sure = window.confirm(
        `Are you sure you want to delete ${building.name}? This will also delete all rooms and equipment in this building.`,
      );
      if (!sure) return;
      mutate(
        building,
        saveOutcome({ done: 'Building deleted successfully', failed: 'Failed to delete building' }),
      );
    },
    [mutate],
  );
  const edit = useCallback((building: BuildingListItem) => setMode({ kind: 'edit', building }), [setMode]);
  const matches = searchMatcher(search);
  const added = usePendingCreates('createBuilding', {}, matches);

  if (mode.kind !== 'list') {
    return (
      <BuildingForm
        building={mode.kind === 'edit' ? mode.building : undefined}
        onDone={() => setMode({ kind: 'list' })}
      />
    );
  }

  const shown = (buildings.data ?? []).filter(matches);
  return (
    <div className="space-y-4">
      <Heading onAdd={() => setMode({ kind: 'add' })} />
      <SearchInput
        aria-label="Search buildings"
        placeholder="Search buildings..."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <PendingCreates entries={added} heading="h2" />
      {buildings.isPending ? (
        <BuildingCardSkeletons />
      ) : buildings.isError ? (
        <LoadError what="buildings" error={buildings.error} onRetry={() => buildings.refetch()} />
      ) : shown.length === 0 ? (
        added.length === 0 && <Card className="p-8 text-center text-slate-600">No buildings found</Card>
      ) : (
        <VirtualList
          items={shown}
          itemKey={(building) => building.id}
          // A picture of 160 px over the name, room count and chips; a description adds lines.
          estimateHeight={(building) => (building.description ? 300 : 260)}
          gap={16}
          className="space-y-4"
          renderItem={(building) => (
            <ListedBuildingCard
              building={building}
              deleting={remove.isPending && remove.variables.id === building.id}
              onEdit={edit}
              onDelete={confirmDelete}
            />
          )}
        />
      )}
    </div>
  );
}

/** The title and Add, the problems banner, and the way to the classes ahead ("Before class"). */
function Heading({ onAdd }: { onAdd: () => void }) {
  return (
    <>
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">Campus Buildings</h1>
        <TooltipProvider>
          <Tooltip content="Add building">
            <Button size="round" aria-label="Add building" onClick={onAdd}>
              <Plus aria-hidden className="h-6 w-6" />
            </Button>
          </Tooltip>
        </TooltipProvider>
      </div>
      <ProblemsBanner />
      <Link
        href="/before-class"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 underline"
      >
        <CalendarClock aria-hidden className="h-4 w-4" />
        Before class
      </Link>
    </>
  );
}
