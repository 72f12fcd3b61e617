import {
  type ScheduleLocationMapping,
  type ScheduleSource,
  scheduleSourceSchema,
  type ScheduleSourceInput,
} from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiJson, apiQuery, fetchText, queryKeyOf, uploadDeadlineMs } from '../../../lib/api';

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
function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: scheduleSourcesQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: locationsKey }),
      queryClient.invalidateQueries({ queryKey: roomsKey }),
    ]);
}

export function useSaveScheduleSource() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: ScheduleSourceInput }) =>
      id === undefined
        ? apiJson(apiRoutes.createScheduleSource, undefined, body)
        : apiJson(apiRoutes.updateScheduleSource, { id }, body),
    onSuccess: refresh,
  });
}

export function useDeleteScheduleSource() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteScheduleSource, { id }),
    onSuccess: refresh,
  });
}

/** Sends a timetable file; a file with errors is answered 422 with each error by line. */
export async function uploadScheduleFile(id: string, file: File): Promise<ScheduleSource> {
  const form = new FormData();
  form.append('file', file);
  const { res, text } = await fetchText(
    apiRoutes.uploadScheduleFile.path.replace(':id', encodeURIComponent(id)),
    { method: apiRoutes.uploadScheduleFile.method, body: form, credentials: 'include' },
    uploadDeadlineMs(file.size) + 30_000,
  );
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  return scheduleSourceSchema.parse(JSON.parse(text));
}

export function useUploadScheduleFile() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => uploadScheduleFile(id, file),
    onSuccess: refresh,
  });
}

export function useMapLocation() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (mapping: ScheduleLocationMapping) =>
      apiJson(apiRoutes.mapScheduleLocation, undefined, mapping),
    onSuccess: refresh,
  });
}
