import { apiRoutes } from '../../../lib/api-routes';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiQuery } from '../../../lib/api';

/** Spec section 7: polled every 5 seconds while the screen shows it. */
const MONITORING_POLL_MS = 5000;

export const monitoringStatusQuery = queryOptions({
  ...apiQuery(apiRoutes.monitoringStatus),
  refetchInterval: MONITORING_POLL_MS,
});

const actionRoutes = {
  start: apiRoutes.startMonitoring,
  stop: apiRoutes.stopMonitoring,
  check: apiRoutes.checkMonitoring,
} as const;

export type MonitoringAction = keyof typeof actionRoutes;

/** Start, stop or one check now; afterwards the status is asked again. */
export function useMonitoringAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: MonitoringAction) => apiJson(actionRoutes[action]),
    onSettled: () => queryClient.invalidateQueries({ queryKey: monitoringStatusQuery.queryKey }),
  });
}
