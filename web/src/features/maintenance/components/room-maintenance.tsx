import { type MaintenanceWindow, maintenanceTargetOf } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { Trash2, Wrench } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { type MaintenanceTargets } from './maintenance-window-form';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { roomWindowsQuery, useDeleteMaintenanceWindow } from '../api/maintenance-windows';
import { currentWindows, formatSpan, formatWhen, maintenanceUntil } from '../lib/windows';
import { useNow } from '../../../lib/use-now';

// The form's code and its dialog come once the room is drawn, not with it: mounted closed with
// the section, they are here before Add Window is tapped.
const MaintenanceWindowDialog = lazyComponent(
  () => import('./maintenance-window-form'),
  (m) => m.MaintenanceWindowDialog,
);

/** How soon a window that begins or ends shows so on an open screen. */
const TICK_MS = 30_000;

interface RoomWindowsProps {
  roomId: string;
  /** The list's start, fixed by the screen so that the notice and the section share one query. */
  from: string;
}

/** Windows over the whole room: its own and its building's (one equipment's leaves the rest watched). */
const coversRoom = (w: MaintenanceWindow) => w.equipmentId === null;

/**
 * "In maintenance until …" under the room's name while a window of the room or its building is in
 * force (issue 21), carried on by windows that follow without a break.
 */
export function MaintenanceNotice({ roomId, from }: RoomWindowsProps) {
  const windows = useQuery(roomWindowsQuery(roomId, from));
  const now = useNow(TICK_MS);
  const until = maintenanceUntil((windows.data ?? []).filter(coversRoom), now);
  if (until === null) return null;
  return (
    <p
      role="status"
      className="flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200 ring-inset"
    >
      <Wrench aria-hidden className="h-4 w-4 shrink-0" />
      {/* The date and time kept on one line: a lone "PM" on the next reads badly. */}
      <span>
        In maintenance until{' '}
        <span className="whitespace-nowrap">{formatWhen(new Date(until).toISOString())}</span>
      </span>
    </p>
  );
}

/**
 * The room's maintenance windows in force and to come, its building's and its equipment's with
 * them, with adding and deleting.
 */
export function MaintenanceSection({
  roomId,
  from,
  targets,
}: RoomWindowsProps & { targets: MaintenanceTargets }) {
  const windows = useQuery(roomWindowsQuery(roomId, from));
  const now = useNow(TICK_MS);
  const [adding, setAdding] = useState(false);
  const { active, upcoming } = currentWindows(windows.data ?? [], now);
  const shown = [...active, ...upcoming];

  return (
    <section aria-labelledby="maintenance-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="maintenance-heading" className="text-lg font-semibold text-slate-900">
          Maintenance
        </h2>
        <Button variant="outline" onClick={() => setAdding(true)}>
          + Add Window
        </Button>
      </div>
      {windows.isPending ? (
        <Skeleton
          aria-busy="true"
          aria-label="Loading maintenance windows"
          className="h-16 w-full rounded-xl"
        />
      ) : windows.isError ? (
        <LoadError what="maintenance windows" error={windows.error} onRetry={() => windows.refetch()} />
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-600">No maintenance planned</p>
      ) : (
        <ul className="space-y-2" aria-label="Maintenance windows">
          {shown.map((w) => (
            <li key={w.id}>
              <WindowCard item={w} roomId={roomId} inForce={active.includes(w)} />
            </li>
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        <MaintenanceWindowDialog open={adding} onOpenChange={setAdding} targets={targets} />
      </Suspense>
    </section>
  );
}

function targetLabel(w: MaintenanceWindow, roomId: string): string {
  const kind = maintenanceTargetOf(w);
  if (kind === 'building') return `Whole building: ${w.targetName}`;
  if (kind === 'room') return w.roomId === roomId ? 'This room' : w.targetName;
  return w.targetName;
}

function WindowCard({
  item: w,
  roomId,
  inForce,
}: {
  item: MaintenanceWindow;
  roomId: string;
  inForce: boolean;
}) {
  const remove = useDeleteMaintenanceWindow();
  const label = targetLabel(w, roomId);
  const confirmDelete = () => {
    if (!window.confirm(`Delete the maintenance window "${w.reason}" (${label})?`)) return;
    remove.mutate(
      { id: w.id },
      {
        onSuccess: () => toast({ title: 'Success', description: 'Maintenance window deleted' }),
        onError: () =>
          toast({
            title: 'Error',
            description: 'Failed to delete maintenance window',
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <Card className="flex items-start gap-2 p-3" data-testid="maintenance-window">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-words text-slate-900">{label}</span>
          <Badge variant={inForce ? 'warning' : 'neutral'}>{inForce ? 'Now' : 'Planned'}</Badge>
        </div>
        <p className="text-sm text-slate-700">{formatSpan(w.startsAt, w.endsAt)}</p>
        <p className="text-sm break-words whitespace-pre-wrap text-slate-600">{w.reason}</p>
      </div>
      <Button
        variant="ghost"
        size="icon"
        className="text-red-600 hover:bg-red-50"
        aria-label={`Delete maintenance window: ${w.reason}`}
        disabled={remove.isPending}
        onClick={confirmDelete}
      >
        <Trash2 aria-hidden className="h-5 w-5" />
      </Button>
    </Card>
  );
}
