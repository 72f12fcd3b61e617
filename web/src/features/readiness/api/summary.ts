import { type ReadinessSummarySettings } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../lib/api-routes';
import { apiJson, apiQuery } from '../../../lib/api';

export const summaryQuery = apiQuery(apiRoutes.readinessSummary);
/** The channels to choose from (administrators'); the notifications feature owns them. */
export const summaryChannelsQuery = apiQuery(apiRoutes.listChannels);

export function useSaveSummary() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReadinessSummarySettings) =>
      apiJson(apiRoutes.setReadinessSummary, undefined, settings),
    onSuccess: (saved) => queryClient.setQueryData(summaryQuery.queryKey, saved),
  });
}
