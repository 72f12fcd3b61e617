import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiQuery } from '../../../lib/api';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { type NewEntry } from '../../../lib/offline/outbox-store';
import { type DeletedRecord, queueableDelete } from '../../../lib/offline/queueable-delete';
import { queueableSave } from '../../../lib/offline/queueable-save';
import { useSubmissionKey } from '../../../lib/submission-key';

export const equipmentListQuery = (roomId: string) => apiQuery(apiRoutes.listEquipment, { roomId });

/**
 * The equipment of the room's building, each with its room: the choices of an upstream device, and
 * how one is named. The room comes from the cache the room screen filled.
 */
export function useBuildingEquipment(roomId: string, enabled = true) {
  const room = useQuery({ ...apiQuery(apiRoutes.getRoom, { id: roomId }), enabled });
  const buildingId = room.data?.buildingId ?? '';
  return useQuery({
    ...apiQuery(apiRoutes.listBuildingEquipment, { buildingId }),
    enabled: enabled && buildingId !== '',
  });
}

type EquipmentSave =
  | { roomId: string; id?: undefined; version?: undefined; body: ApiBody<typeof apiRoutes.createEquipment> }
  | { roomId: string; id: string; version?: number; body: ApiBody<typeof apiRoutes.updateEquipment> };

/** Create (no id) or update; afterwards the room's equipment list is refreshed. */
export function useSaveEquipment() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (save: EquipmentSave) => {
      const key = submission.keyFor(save);
      const { id, roomId, body } = save;
      const form = { draftKey: draftKeyOf('equipment', id, roomId), path: `/rooms/${roomId}` };
      const label = `${id ? 'Edit' : 'Add'} equipment ${body.name}`;
      const entry: NewEntry = id
        ? { key, route: 'updateEquipment', params: { id }, body, ifVersion: save.version, label, form }
        : { key, route: 'createEquipment', params: { roomId }, body, label, form };
      return queueableSave(entry);
    },
    onSuccess: (_equipment, { roomId }) => {
      submission.saved();
      return queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey });
    },
  });
}

export function useDeleteEquipment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ equipment }: { equipment: DeletedRecord; roomId: string }) =>
      queueableDelete('deleteEquipment', equipment),
    onSuccess: (_res, { roomId }) =>
      queryClient.invalidateQueries({ queryKey: equipmentListQuery(roomId).queryKey }),
  });
}
