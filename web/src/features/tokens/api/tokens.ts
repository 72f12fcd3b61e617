import { type ApiTokenCreate } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiQuery } from '../../../lib/api';

export const apiTokensQuery = apiQuery(apiRoutes.listApiTokens);

/** The answer holds the token, this once. */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApiTokenCreate) => apiJson(apiRoutes.createApiToken, undefined, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteApiToken, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQuery.queryKey }),
  });
}
