import { type Equipment, type RoomCheckResult } from '@cm/contracts';
import { RefreshCw } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { useCheckRoom, useRoomCheckResult } from '../api/room-check';

/**
 * "Check this room now": the room's devices pinged and probed at once, rather than a campus-wide
 * Check Now; the cards then show the statuses and "Checked 0 s ago". A device still being checked
 * when the answer came shows "Checking..." on its card until its result arrives (a live event).
 */
export function RoomCheck({ roomId, equipment }: { roomId: string; equipment: readonly Equipment[] }) {
  const check = useCheckRoom(roomId);
  const result = useRoomCheckResult(roomId);
  return (
    <div className="space-y-2">
      <Button variant="outline" className="w-full" disabled={check.isPending} onClick={() => check.mutate()}>
        <RefreshCw aria-hidden className={cn('h-4 w-4', check.isPending && 'animate-spin')} />
        {check.isPending ? 'Checking this room...' : 'Check this room now'}
      </Button>
      <p role="status" className={cn('text-sm', check.isError ? 'text-red-700' : 'text-slate-700')}>
        {check.isPending
          ? null
          : check.isError
            ? `Failed to check this room: ${check.error.message}`
            : result
              ? describe(result, equipment)
              : null}
      </p>
    </div>
  );
}

/** The answer's message, and which devices gave none (by name: the cards beneath show the rest). */
function describe(result: RoomCheckResult, equipment: readonly Equipment[]): string {
  const names = new Map(equipment.map((e) => [e.id, e.name]));
  const silent = result.equipment
    .filter((e) => !e.pending && (e.status === 'inactive' || e.probe?.outcome === 'unreachable'))
    .map((e) => names.get(e.equipmentId) ?? 'Removed equipment');
  return silent.length ? `${result.message}. No answer from ${silent.join(', ')}` : result.message;
}
