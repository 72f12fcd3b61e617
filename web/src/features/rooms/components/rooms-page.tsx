import { type RoomListItem } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Plus, Printer } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { NotFound } from '../../../components/ui/not-found';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tooltip, TooltipProvider } from '../../../components/ui/tooltip';
import { saveOutcome } from '../../../components/ui/save-outcome';
import { PendingCreates, usePendingCreates } from '../../../components/ui/pending-creates';
import { ApiError } from '../../../lib/api';
import { useScrollMemory } from '../../../lib/remembered';
import { buildingOfRoomsQuery, roomsQuery, useDeleteRoom } from '../api/rooms';
import { RoomFormDialog } from './room-form-dialog';
import { KeepOfflineButton } from './keep-offline-button';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { useRequestedForm } from '../../../lib/offline/requested-form';
import { useRoomClasses } from '../lib/room-classes';
import { RoomList } from './room-list';
import { RoomOrder } from './room-order';

type FormState = { open: false } | { open: true; room?: RoomListItem };

export function RoomsPage({ buildingId }: { buildingId: string }) {
  const building = useQuery(buildingOfRoomsQuery(buildingId));
  const rooms = useQuery(roomsQuery(buildingId));
  const remove = useDeleteRoom();
  const classes = useRoomClasses(buildingId);
  const [byNextClass, setByNextClass] = useState(false);
  const [form, setForm] = useState<FormState>({ open: false });
  useRequestedForm(draftKeyOf('room', undefined, buildingId), () => setForm({ open: true }));
  useScrollMemory(`rooms.${buildingId}`, rooms.isSuccess);

  const confirmDelete = (room: RoomListItem) => {
    const sure = window.confirm(
      `Are you sure you want to delete ${room.name}? This will also delete all equipment in this room.`,
    );
    if (!sure) return;
    remove.mutate(
      { room, buildingId },
      saveOutcome({ done: 'Room deleted successfully', failed: 'Failed to delete room' }),
    );
  };

  const added = usePendingCreates('createRoom', { buildingId });
  const missing = [building.error, rooms.error].some((e) => e instanceof ApiError && e.status === 404);
  if (missing) return <NotFound what="Building" />;

  return (
    <div className="space-y-4">
      <RoomsHeading
        buildingId={buildingId}
        name={building.data?.name}
        onAdd={() => setForm({ open: true })}
      />
      {rooms.isSuccess && rooms.data.length > 0 ? <KeepOfflineButton buildingId={buildingId} /> : null}
      {classes.any && rooms.isSuccess && rooms.data.length > 1 ? (
        <RoomOrder byNextClass={byNextClass} onChange={setByNextClass} />
      ) : null}
      <PendingCreates entries={added} heading="h3" />
      {rooms.isPending ? (
        <RoomListSkeleton />
      ) : rooms.isError ? (
        <LoadError what="rooms" error={rooms.error} onRetry={() => rooms.refetch()} />
      ) : rooms.data.length === 0 ? (
        added.length > 0 ? null : (
          <Card className="p-8 text-center text-slate-600">No rooms found</Card>
        )
      ) : (
        <RoomList
          rooms={rooms.data}
          classes={classes}
          byNextClass={byNextClass}
          deletingId={remove.isPending ? remove.variables.room.id : undefined}
          onEdit={(room) => setForm({ open: true, room })}
          onDelete={confirmDelete}
        />
      )}
      <RoomFormDialog
        open={form.open}
        onOpenChange={(open) => setForm(open && form.open ? form : { open: false })}
        buildingId={buildingId}
        room={form.open ? form.room : undefined}
      />
    </div>
  );
}

/** The building's name, and its QR labels and Add room buttons. */
function RoomsHeading({ buildingId, name, onAdd }: { buildingId: string; name?: string; onAdd: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3">
      {name !== undefined ? (
        <h1 className="min-w-0 text-2xl font-bold break-words text-slate-900">{name} Rooms</h1>
      ) : (
        <Skeleton className="h-8 w-2/3" />
      )}
      <div className="flex shrink-0 gap-2">
        <TooltipProvider>
          <Tooltip content="Print QR labels">
            <Link
              href={`/buildings/${buildingId}/labels`}
              aria-label="Print QR labels"
              className={buttonClass({ variant: 'outline', size: 'round' })}
            >
              <Printer aria-hidden className="h-6 w-6" />
            </Link>
          </Tooltip>
          <Tooltip content="Add room">
            <Button size="round" aria-label="Add room" onClick={onAdd}>
              <Plus aria-hidden className="h-6 w-6" />
            </Button>
          </Tooltip>
        </TooltipProvider>
      </div>
    </div>
  );
}

function RoomListSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading rooms" className="space-y-3">
      <Skeleton className="h-6 w-1/3" />
      {Array.from({ length: 3 }, (_, i) => (
        <Card key={i} className="space-y-2 p-4" data-testid="room-skeleton">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/3" />
        </Card>
      ))}
    </div>
  );
}
