import { type Room } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiQuery, queryKeyOf } from '../../../lib/api';
import { draftKeyOf } from '../../../lib/offline/drafts';
import { isConflicted, isQueued } from '../../../lib/offline/markers';
import { type NewEntry } from '../../../lib/offline/outbox-store';
import { type DeletedRecord, queueableDelete } from '../../../lib/offline/queueable-delete';
import { queueableSave } from '../../../lib/offline/queueable-save';
import { queueablePicture } from '../../../lib/offline/queueable-upload';
import { useSubmissionKey } from '../../../lib/submission-key';
import { attachments, type RoomAttachmentField } from '../lib/attachment-words';

// The buildings list is the buildings feature's; rooms only invalidate it, by its route.
const buildingsKey = queryKeyOf(apiRoutes.listBuildings);

export const roomsQuery = (buildingId: string) => apiQuery(apiRoutes.listRooms, { buildingId });

/**
 * The classes of a building's rooms from `from` for a week (at most a few per room), for the
 * cards' "Next class …" line: one request for the whole list.
 */
export const buildingClassesQuery = (buildingId: string, from: string) =>
  apiQuery(
    apiRoutes.buildingClasses,
    { id: buildingId },
    { from, to: new Date(Date.parse(from) + 7 * 86_400_000).toISOString() },
  );

export const roomQuery = (roomId: string) => apiQuery(apiRoutes.getRoom, { id: roomId });

/** The building a rooms page names in its heading (the rooms feature reads it, it does not own it). */
export const buildingOfRoomsQuery = (buildingId: string) =>
  apiQuery(apiRoutes.getBuilding, { id: buildingId });

/** The edit form sends the whole create payload. */
type RoomSave = {
  buildingId: string;
  id?: string;
  version?: number;
  body: ApiBody<typeof apiRoutes.createRoom>;
};

/**
 * Create (no id) or update. Spec section 7: afterwards the buildings queries and that
 * building's rooms queries are invalidated and removed. Removing is limited to the queries
 * nobody shows: removing a shown one would leave its screen on data that no longer refreshes.
 */
export function useSaveRoom() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: ({ buildingId, id, version, body }: RoomSave) => {
      const key = submission.keyFor({ buildingId, id, body });
      const form = { draftKey: draftKeyOf('room', id, buildingId), path: `/buildings/${buildingId}/rooms` };
      const entry: NewEntry = id
        ? {
            key,
            route: 'updateRoom',
            params: { id },
            body,
            ifVersion: version,
            label: `Edit room ${body.name}`,
            form,
          }
        : { key, route: 'createRoom', params: { buildingId }, body, label: `Add room ${body.name}`, form };
      return queueableSave(entry);
    },
    onSuccess: async (room, { buildingId, id }) => {
      submission.saved();
      // The room's own screen (and the header naming it) shows the edit at once.
      if (id && typeof room === 'object') queryClient.setQueryData(roomQuery(id).queryKey, room as Room);
      for (const queryKey of [buildingsKey, roomsQuery(buildingId).queryKey]) {
        await queryClient.invalidateQueries({ queryKey });
        queryClient.removeQueries({ queryKey, type: 'inactive' });
      }
    },
  });
}

/** Spec section 7: afterwards that building's rooms list and the buildings list are refreshed. */
export function useDeleteRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ room }: { room: DeletedRecord; buildingId: string }) =>
      queueableDelete('deleteRoom', room),
    onSuccess: (_res, { buildingId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roomsQuery(buildingId).queryKey }),
        queryClient.invalidateQueries({ queryKey: buildingsKey, exact: true }),
      ]),
  });
}

export type { RoomAttachmentField } from '../lib/attachment-words';

/**
 * Spec section 4, last step of the photo upload flow: attach the stored path to the room,
 * sending only that one field so nothing else on the room changes. A null path removes it.
 * Through the outbox, on the version the screen shows (If-Match): a room changed elsewhere
 * meanwhile is a conflict to settle, not overwritten; offline, a removal waits on the phone.
 */
export function useAttachToRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ room, field, path }: { room: Room; field: RoomAttachmentField; path: string | null }) =>
      queueablePicture(room, field, attachments[field].what, path),
    onSuccess: (saved, { room }) => {
      if (isQueued(saved) || isConflicted(saved)) return;
      queryClient.setQueryData(roomQuery(room.id).queryKey, saved as Room);
      return queryClient.invalidateQueries({ queryKey: roomsQuery(room.buildingId).queryKey });
    },
  });
}
