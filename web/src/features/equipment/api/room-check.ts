import { type RoomCheckResult } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { roomCheckKey } from '../../../lib/live-events';
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

/** The ids of the room's equipment whose check is still under way. */
export function usePendingChecks(roomId: string): ReadonlySet<string> {
  const result = useRoomCheckResult(roomId);
  return new Set(result?.equipment.filter((e) => e.pending).map((e) => e.equipmentId));
}
