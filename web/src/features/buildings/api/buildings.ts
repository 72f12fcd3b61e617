import { apiRoutes } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiCreate, apiJson, apiQuery } from '../../../lib/api';
import { useSubmissionKey } from '../../../lib/submission-key';

export const buildingsQuery = apiQuery(apiRoutes.listBuildings);

export const buildingQuery = (buildingId: string) => apiQuery(apiRoutes.getBuilding, { id: buildingId });

/** The edit form sends the create payload (spec section 7). */
type BuildingSave = { id?: string; body: ApiBody<typeof apiRoutes.createBuilding> };

/** Create (no id) or edit; afterwards the buildings list is refreshed (spec section 7). */
export function useSaveBuilding() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: ({ id, body }: BuildingSave) =>
      id
        ? apiJson(apiRoutes.updateBuilding, { id }, body)
        : apiCreate(apiRoutes.createBuilding, submission.keyFor(body), undefined, body),
    onSuccess: () => {
      submission.saved();
      return queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey });
    },
  });
}

export function useDeleteBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteBuilding, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}
