import {
  type Building,
  type BuildingCreate,
  type BuildingListItem,
  type BuildingUpdate,
} from '@cm/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export const buildingsQuery = queryOptions<BuildingListItem[]>({ queryKey: ['/api/buildings'] });

export const buildingQuery = (buildingId: string) =>
  queryOptions<Building>({ queryKey: ['/api/buildings', buildingId] });

export type BuildingSave = { id?: string; body: BuildingCreate | BuildingUpdate };

/** Create (no id) or edit; afterwards the buildings list is refreshed (spec section 7). */
export function useSaveBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: BuildingSave) =>
      (await (
        await apiRequest(id ? 'PUT' : 'POST', id ? `/api/buildings/${id}` : '/api/buildings', body)
      ).json()) as Building,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}

export function useDeleteBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/buildings/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}
