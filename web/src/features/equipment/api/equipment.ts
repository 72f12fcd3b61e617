import { type Equipment, type EquipmentCreateBody, type EquipmentUpdate } from '@cm/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export const equipmentListQuery = (roomId: string) =>
  queryOptions<Equipment[]>({ queryKey: ['/api/rooms', roomId, 'equipment'] });

export type EquipmentSave =
  | { roomId: string; id?: undefined; body: EquipmentCreateBody }
  | { roomId: string; id: string; body: EquipmentUpdate };

/** Create (no id) or update; afterwards the room's equipment list is refreshed. */
export function useSaveEquipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ roomId, id, body }: EquipmentSave) =>
      (await (
        await apiRequest(
          id ? 'PUT' : 'POST',
          id ? `/api/equipment/${id}` : `/api/rooms/${roomId}/equipment`,
          body,
        )
      ).json()) as Equipment,
    onSuccess: (_equipment, { roomId }) =>
      queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey }),
  });
}

export function useDeleteEquipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string; roomId: string }) => apiRequest('DELETE', `/api/equipment/${id}`),
    onSuccess: (_res, { roomId }) =>
      queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey }),
  });
}
