import { type ScheduleSource, scheduleSourceSchema } from '@cm/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRoutes } from '../../../lib/api-routes';
import { ApiError, fetchText, uploadDeadlineMs } from '../../../lib/api';
import { useRefreshSchedules } from './schedules';

// Apart from the reads: its reply's schema (zod) stays off the room screen, whose next class
// reads the timetable (issue 37's budget).

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
  const refresh = useRefreshSchedules();
  return useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => uploadScheduleFile(id, file),
    onSuccess: refresh,
  });
}
