import { type RoomCheckResult } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiJson } from '../../../lib/api';
import { roomCheckKey, settleRoomCheck } from '../../../lib/live-events';
import { equipmentListQuery } from './equipment';

/**
 * "Check this room now": pings and probes the room's equipment; the list is read again after.
 * The answer is kept under `roomCheckKey`, where the results that come after it (live events)
 * fill it in.
 */
export function useCheckRoom(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(apiRoutes.checkRoom, { roomId }),
    onSuccess: (result) => queryClient.setQueryData(roomCheckKey(roomId), result),
    onSettled: () => queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey }),
  });
}

/** The room's last check answer on this screen, with its late results; undefined before one. */
export function useRoomCheckResult(roomId: string): RoomCheckResult | undefined {
  return (
    useQuery<RoomCheckResult | null>({
      queryKey: roomCheckKey(roomId),
      // Only ever written by the check and by live events, never fetched.
      queryFn: () => null,
      enabled: false,
      staleTime: Infinity,
      gcTime: 10 * 60_000,
    }).data ?? undefined
  );
}

/**
 * How long a device may stay "Checking..." before the screen reads what the monitor recorded
 * instead of waiting on for its `room.checked` event (missed when the live stream was down): a
 * silent address's pings and a probe take a few seconds at most.
 */
export const SETTLE_PENDING_CHECKS_MS = 10_000;

/**
 * The ids of the room's equipment whose check is still under way. Never for good: past
 * SETTLE_PENDING_CHECKS_MS without their event, the room's equipment is read again for them.
 */
export function usePendingChecks(roomId: string): ReadonlySet<string> {
  const queryClient = useQueryClient();
  const result = useRoomCheckResult(roomId);
  const pending = result?.equipment.filter((e) => e.pending).map((e) => e.equipmentId) ?? [];
  const waiting = pending.length > 0 ? result?.checkId : undefined;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => void settleRoomCheck(queryClient, roomId), SETTLE_PENDING_CHECKS_MS);
    return () => clearTimeout(timer);
  }, [queryClient, roomId, waiting]);
  return new Set(pending);
}
