import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiCreate, apiJson, apiQuery, queryKeyOf } from '../../../lib/api';
import { useSubmissionKey } from '../../../lib/submission-key';

/** Every list of windows, whatever its filters: a change may concern any of them. */
const windowsKey = queryKeyOf(apiRoutes.listMaintenanceWindows);
// A window changes the uptime of what it covers: the report and open timelines follow.
const reportKey = queryKeyOf(apiRoutes.uptimeReport);
// The first segment of every equipment's history key (`['/api/equipment', id, 'history', …]`).
const historiesKey = queryKeyOf(apiRoutes.equipmentHistory, { id: 'any' }).slice(0, 1);

/**
 * The windows that concern a room (its building's, its own, its equipment's) that end after
 * `from`: those in force and those to come. `from` is fixed by the caller (a key that changed with
 * every render would be a new query each time); windows that end later are dropped on screen.
 */
export const roomWindowsQuery = (roomId: string, from: string) =>
  apiQuery(apiRoutes.listMaintenanceWindows, { roomId, from });

const refreshAfterChange = (queryClient: ReturnType<typeof useQueryClient>) =>
  Promise.all(
    [windowsKey, reportKey, historiesKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );

export function useCreateMaintenanceWindow() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (body: ApiBody<typeof apiRoutes.createMaintenanceWindow>) =>
      apiCreate(apiRoutes.createMaintenanceWindow, submission.keyFor(body), undefined, body),
    onSuccess: () => {
      submission.saved();
      return refreshAfterChange(queryClient);
    },
  });
}

export function useDeleteMaintenanceWindow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id }: { id: string }) => apiJson(apiRoutes.deleteMaintenanceWindow, { id }),
    onSuccess: () => refreshAfterChange(queryClient),
  });
}
