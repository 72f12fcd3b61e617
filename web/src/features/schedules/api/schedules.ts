import { type ScheduleLocationMapping, type ScheduleSourceInput } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiQuery, queryKeyOf } from '../../../lib/api';

export const scheduleSourcesQuery = apiQuery(apiRoutes.listScheduleSources);
export const unmatchedLocationsQuery = apiQuery(apiRoutes.listScheduleLocations, { unmatched: 'true' });
export const buildingsQuery = apiQuery(apiRoutes.listBuildings);
export const buildingRoomsQuery = (buildingId: string) => apiQuery(apiRoutes.listRooms, { buildingId });

/**
 * A room's classes from `from` for a week (the server keeps 14 days): the next class may be days
 * away on a Friday afternoon.
 */
export const roomScheduleQuery = (roomId: string, from: string) =>
  apiQuery(
    apiRoutes.roomSchedule,
    { id: roomId },
    { from, to: new Date(Date.parse(from) + 7 * 86_400_000).toISOString() },
  );

const locationsKey = queryKeyOf(apiRoutes.listScheduleLocations);
const roomsKey = ['/api/rooms'];

/** After a change of sources, files or mappings: the lists, the locations and the rooms' classes. */
/** Reads again what a change of a source touches: the sources, the places and the rooms. */
export function useRefreshSchedules() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: scheduleSourcesQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: locationsKey }),
      queryClient.invalidateQueries({ queryKey: roomsKey }),
    ]);
}

export function useSaveScheduleSource() {
  const refresh = useRefreshSchedules();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ScheduleSourceInput }) =>
      id === undefined
        ? apiJson(apiRoutes.createScheduleSource, undefined, body)
        : apiJson(apiRoutes.updateScheduleSource, { id }, body),
    onSuccess: refresh,
  });
}

export function useDeleteScheduleSource() {
  const refresh = useRefreshSchedules();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteScheduleSource, { id }),
    onSuccess: refresh,
  });
}

export function useMapLocation() {
  const refresh = useRefreshSchedules();
  return useMutation({
    mutationFn: (mapping: ScheduleLocationMapping) =>
      apiJson(apiRoutes.mapScheduleLocation, undefined, mapping),
    onSuccess: refresh,
  });
}
