import { type MonitoringCheckResult, type MonitoringStatus } from '@cm/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

/** Spec section 7: polled every 5 seconds while the screen shows it. */
const MONITORING_POLL_MS = 5000;

export const monitoringStatusQuery = queryOptions<MonitoringStatus>({
  queryKey: ['/api/monitoring/status'],
  refetchInterval: MONITORING_POLL_MS,
});

export type MonitoringAction = 'start' | 'stop' | 'check';

/** Start, stop or one check now; afterwards the status is asked again. */
export function useMonitoringAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: MonitoringAction) =>
      (await (await apiRequest('POST', `/api/monitoring/${action}`)).json()) as
        MonitoringStatus | MonitoringCheckResult,
    onSettled: () => queryClient.invalidateQueries({ queryKey: monitoringStatusQuery.queryKey }),
  });
}
