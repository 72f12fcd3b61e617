import { type ImportAnswer, importAnswerSchema } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, fetchText, uploadDeadlineMs } from '../../../lib/api';

/**
 * Sends the file to `POST /api/inventory/import`: the preview with `dryRun`, else the import
 * itself. Planning 50,000 lines takes the server a while: the deadline grows with the file.
 */
export async function importInventory(file: File, dryRun: boolean): Promise<ImportAnswer> {
  const form = new FormData();
  form.append('file', file);
  const { res, text } = await fetchText(
    `${apiRoutes.importInventory.path}${dryRun ? '?dryRun=true' : ''}`,
    { method: apiRoutes.importInventory.method, body: form, credentials: 'include' },
    uploadDeadlineMs(file.size) + 60_000,
  );
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  return importAnswerSchema.parse(JSON.parse(text));
}

/** The import applied: every list of buildings, rooms and equipment is out of date. */
export function useImportInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => importInventory(file, dryRun),
    onSuccess: (answer) => (answer.applied ? queryClient.invalidateQueries() : undefined),
  });
}
