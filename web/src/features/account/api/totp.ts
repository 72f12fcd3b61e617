import { type TotpProof } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiQuery, queryKeyOf } from '../../../lib/api';

export const totpStatusQuery = apiQuery(apiRoutes.totpStatus);

/** The status and the signed-in user (whose `totpEnabled` the app reads) are asked again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: totpStatusQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: queryKeyOf(apiRoutes.currentUser) }),
    ]);
}

export function useTotpSetup() {
  return useMutation({ mutationFn: () => apiJson(apiRoutes.totpSetup) });
}

/** Not refreshed here: the recovery codes are shown first, and the screen refreshes when they are put away. */
export function useTotpEnable() {
  return useMutation({ mutationFn: (code: string) => apiJson(apiRoutes.totpEnable, undefined, { code }) });
}

export function useTotpDisable() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (proof: TotpProof) => apiJson(apiRoutes.totpDisable, undefined, proof),
    onSuccess: refresh,
  });
}

export function useNewRecoveryCodes() {
  return useMutation({
    mutationFn: (proof: TotpProof) => apiJson(apiRoutes.totpRecoveryCodes, undefined, proof),
  });
}

export { useRefresh as useRefreshTotp };
