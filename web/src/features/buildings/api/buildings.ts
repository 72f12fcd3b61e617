import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiQuery } from '../../../lib/api';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { type NewEntry } from '../../../lib/offline/outbox-store';
import { type DeletedRecord, queueableDelete } from '../../../lib/offline/queueable-delete';
import { queueableSave } from '../../../lib/offline/queueable-save';
import { useSubmissionKey } from '../../../lib/submission-key';

export const buildingsQuery = apiQuery(apiRoutes.listBuildings);

export const buildingQuery = (buildingId: string) => apiQuery(apiRoutes.getBuilding, { id: buildingId });

/**
 * The edit form sends the create payload (spec section 7), on the version it was opened on; a
 * photo chosen offline (or whose upload found no network) goes with it as a file, to be uploaded
 * when the save is sent.
 */
type BuildingSave = {
  id?: string;
  version?: number;
  body: ApiBody<typeof apiRoutes.createBuilding>;
  photo?: File;
};

/**
 * Create (no id) or edit; afterwards the buildings list is refreshed (spec section 7). Offline,
 * it is kept in the outbox with its photo's file and sent later (`lib/offline`).
 */
export function useSaveBuilding() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: ({ id, version, body, photo }: BuildingSave) => {
      const picked = photo && { name: photo.name, size: photo.size, lastModified: photo.lastModified };
      const key = submission.keyFor({ id, body, picked });
      const form = { draftKey: draftKeyOf('building', id), path: '/buildings' };
      const file = photo && { file: { blob: photo, name: photo.name, type: photo.type } };
      const withPhoto = photo ? ' with a new photo' : '';
      const entry: NewEntry = id
        ? {
            key,
            route: 'updateBuilding',
            params: { id },
            body,
            ifVersion: version,
            label: `Edit building ${body.name}${withPhoto}`,
            form,
            ...file,
          }
        : {
            key,
            route: 'createBuilding',
            params: {},
            body,
            label: `Add building ${body.name}${withPhoto}`,
            form,
            ...file,
          };
      return queueableSave(entry);
    },
    onSuccess: () => {
      submission.saved();
      return queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey });
    },
  });
}

export function useDeleteBuilding() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (building: DeletedRecord) => queueableDelete('deleteBuilding', building),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildingsQuery.queryKey }),
  });
}
