import { type Equipment } from '@cm/contracts';
import type { Panel } from './equipment-dialog';
import { useQuery } from '@tanstack/react-query';
import { ChevronRight } from 'lucide-react';
import { Suspense, useState } from 'react';
import { HealthBadge } from '../../../components/health/health-badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { Skeleton } from '../../../components/ui/skeleton';
import { PendingTag } from '../../../components/ui/pending-tag';
import { PendingCreates, usePendingCreates } from '../../../components/ui/pending-creates';
import { equipmentListQuery } from '../api/equipment';
import { useNow } from '../../../lib/use-now';
import { checkedAgo, lastCheckedAt } from '../lib/checked-ago';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { useRequestedForm } from '../../../lib/offline/requested-form';
import { RoomCheck } from './room-check';
import { usePendingChecks } from '../api/room-check';
import { StatusIndicator } from './status-indicator';

/**
 * The dialog (an equipment's details, its health and timeline, and the form) comes once the room
 * is drawn, not with it: mounted closed with the section, it is there before a card is tapped.
 */
const EquipmentDialog = lazyComponent(
  () => import('./equipment-dialog'),
  (m) => m.EquipmentDialog,
);

/** The equipment of a room: cards, adding, and a details dialog to edit or delete. */
export function EquipmentSection({ roomId }: { roomId: string }) {
  const list = useQuery(equipmentListQuery(roomId));
  const [panel, setPanel] = useState<Panel>({ kind: 'closed' });
  const checking = usePendingChecks(roomId);
  useRequestedForm(draftKeyOf('equipment', undefined, roomId), () => setPanel({ kind: 'add' }));
  const add = () => setPanel({ kind: 'add' });
  const added = usePendingCreates('createEquipment', { roomId });

  return (
    <section aria-labelledby="equipment-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="equipment-heading" className="text-lg font-semibold text-slate-900">
          Equipment
        </h2>
        <Button variant="outline" onClick={add}>
          + Add Equipment
        </Button>
      </div>
      {list.data?.length ? <RoomCheck roomId={roomId} equipment={list.data} /> : null}
      <PendingCreates entries={added} heading="h3" />
      {list.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading equipment" className="space-y-2">
          {Array.from({ length: 2 }, (_, i) => (
            <Skeleton key={i} className="h-16 w-full rounded-xl" />
          ))}
        </div>
      ) : list.isError ? (
        <LoadError what="equipment" error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        added.length > 0 ? null : (
          <Card className="space-y-3 p-6 text-center">
            <p className="text-slate-600">No equipment added yet</p>
            <Button onClick={add}>Add First Equipment</Button>
          </Card>
        )
      ) : (
        <ul className="space-y-2">
          {list.data.map((equipment) => (
            <li key={equipment.id}>
              <EquipmentCard
                equipment={equipment}
                checking={checking.has(equipment.id)}
                onOpen={() => setPanel({ kind: 'details', equipment })}
              />
            </li>
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        <EquipmentDialog roomId={roomId} panel={panel} onPanel={setPanel} />
      </Suspense>
    </section>
  );
}

interface EquipmentCardProps {
  equipment: Equipment;
  /** A room check is still waiting for its answer: the card says so until it comes. */
  checking: boolean;
  onOpen: () => void;
}

function EquipmentCard({ equipment, checking, onOpen }: EquipmentCardProps) {
  // Every second: "Checked 12 s ago" counts on while the technician watches.
  const now = useNow(1000);
  return (
    <button
      type="button"
      onClick={onOpen}
      data-testid="equipment-card"
      className="flex min-h-16 w-full items-center gap-3 rounded-xl border border-slate-200 bg-white p-3 text-left shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
    >
      <span className="min-w-0 flex-1">
        <span className="block font-semibold break-words text-slate-900">{equipment.name}</span>
        {equipment.model ? (
          <span className="block text-sm break-words text-slate-600">{equipment.model}</span>
        ) : null}
        {equipment.ipAddress ? (
          <span className="block font-mono text-xs break-all text-slate-600">{equipment.ipAddress}</span>
        ) : null}
        {equipment.ipAddress ? (
          <span className="block text-xs text-slate-600" data-testid="checked-ago">
            {checking ? 'Checking...' : checkedAgo(lastCheckedAt(equipment), now)}
          </span>
        ) : null}
        {/* Reachable and faulty are two answers: a projector that pings may have a dead lamp. */}
        {equipment.health?.state === 'warning' || equipment.health?.state === 'error' ? (
          <HealthBadge state={equipment.health.state} className="mt-1" />
        ) : null}
        <PendingTag record={`Equipment:${equipment.id}`} className="mt-1" />
      </span>
      <StatusIndicator status={equipment.status} className="shrink-0" />
      <ChevronRight aria-hidden className="h-5 w-5 shrink-0 text-slate-400" />
    </button>
  );
}
