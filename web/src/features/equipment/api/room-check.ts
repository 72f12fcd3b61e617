import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { equipmentListQuery } from './equipment';

/** "Check this room now": pings and probes the room's equipment; the list is read again after. */
export function useCheckRoom(roomId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiJson(apiRoutes.checkRoom, { roomId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey }),
  });
}
