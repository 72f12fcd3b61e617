import { type BuildingListItem } from '@cm/contracts';
import { Building2, DoorOpen } from 'lucide-react';
import { Link } from 'wouter';
import { Card } from '../../../components/ui/card';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { FaultChip } from '../../../components/health/fault-chip';
import { PendingTag } from '../../../components/ui/pending-tag';
import { StatusChips } from '../../../components/health/status-chips';

export const roomCountLabel = (count: number) => `${count} ${count === 1 ? 'Room' : 'Rooms'}`;

interface BuildingCardProps {
  building: BuildingListItem;
  deleting: boolean;
  /** Handed the card's building, so that one handler serves every card (the list memoises them). */
  onEdit: (building: BuildingListItem) => void;
  onDelete: (building: BuildingListItem) => void;
}

export function BuildingCard({ building, deleting, onEdit, onDelete }: BuildingCardProps) {
  return (
    <Card className="overflow-hidden" data-testid="building-card">
      {/* The picture repeats the name link below for fingers; keyboards and screen readers skip it. */}
      <Link href={`/buildings/${building.id}/rooms`} tabIndex={-1} aria-hidden="true" className="block">
        {building.imageUrl ? (
          <img src={building.imageUrl} alt="" className="h-40 w-full bg-slate-200 object-cover" />
        ) : (
          <div className="flex h-40 w-full items-center justify-center bg-gradient-to-br from-brand-100 to-slate-200">
            <Building2 aria-hidden className="h-14 w-14 text-brand-700/50" />
          </div>
        )}
      </Link>
      <div className="flex items-start gap-2 p-4 pr-2">
        <Link
          href={`/buildings/${building.id}/rooms`}
          className="min-w-0 flex-1 rounded-md focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <h2 className="text-lg font-semibold break-words text-slate-900">{building.name}</h2>
          {building.description ? (
            <p className="mt-1 line-clamp-2 text-sm break-words text-slate-600">{building.description}</p>
          ) : null}
          <p className="mt-2 inline-flex items-center gap-1.5 text-sm font-medium text-brand-800">
            <DoorOpen aria-hidden className="h-4 w-4" />
            {roomCountLabel(building.roomCount)}
          </p>
          <StatusChips counts={building.statusCounts} />
          <FaultChip count={building.faults} className="mt-2" />
          <PendingTag record={`Building:${building.id}`} className="mt-2" />
        </Link>
        <EditDeleteButtons
          name={building.name}
          deleting={deleting}
          onEdit={() => onEdit(building)}
          onDelete={() => onDelete(building)}
        />
      </div>
    </Card>
  );
}

/** Spec section 9: four placeholder cards while the buildings load. */
export function BuildingCardSkeletons() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading buildings" className="space-y-4">
      {Array.from({ length: 4 }, (_, i) => (
        <Card key={i} className="overflow-hidden" data-testid="building-skeleton">
          <div className="h-40 w-full animate-pulse bg-slate-200" />
          <div className="space-y-2 p-4">
            <div className="h-5 w-2/3 animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-full animate-pulse rounded bg-slate-200" />
            <div className="h-4 w-1/4 animate-pulse rounded bg-slate-200" />
          </div>
        </Card>
      ))}
    </div>
  );
}
