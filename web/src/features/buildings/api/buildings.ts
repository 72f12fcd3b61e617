import { apiRoutes } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiJson, apiQuery } from '../../../lib/api';

export const buildingsQuery = apiQuery(apiRoutes.listBuildings);

export const buildingQuery = (buildingId: string) => apiQuery(apiRoutes.getBuilding, { buildingId });

/** The edit form sends the create payload (spec section 7). */
type BuildingSave = { id?: string; body: ApiBody<typeof apiRoutes.createBuilding> };

/** Create (no id) or edit; afterwards the buildings list is refreshed (spec section 7). */
export function useSaveBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: BuildingSave) =>
      id
        ? apiJson(apiRoutes.updateBuilding, { id }, body)
        : apiJson(apiRoutes.createBuilding, undefined, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}

export function useDeleteBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteBuilding, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}
