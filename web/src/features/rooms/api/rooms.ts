import {
  type Room,
  roomAttachmentFields,
  type RoomCreate,
  type RoomListItem,
  type RoomUpdate,
} from '@cm/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

const BUILDINGS_KEY = '/api/buildings';

export const roomsQuery = (buildingId: string) =>
  queryOptions<RoomListItem[]>({ queryKey: [BUILDINGS_KEY, buildingId, 'rooms'] });

export const roomQuery = (roomId: string) => queryOptions<Room>({ queryKey: ['/api/rooms', roomId] });

/** The building a rooms page names in its heading (the rooms feature reads it, it does not own it). */
export const buildingOfRoomsQuery = (buildingId: string) =>
  queryOptions<{ id: string; name: string }>({ queryKey: [BUILDINGS_KEY, buildingId] });

export type RoomSave = { buildingId: string; id?: string; body: RoomCreate | RoomUpdate };

/**
 * Create (no id) or update. Spec section 7: afterwards the buildings queries and that
 * building's rooms queries are invalidated and removed. Removing is limited to the queries
 * nobody shows: removing a shown one would leave its screen on data that no longer refreshes.
 */
export function useSaveRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ buildingId, id, body }: RoomSave) =>
      (await (
        await apiRequest(
          id ? 'PUT' : 'POST',
          id ? `/api/rooms/${id}` : `/api/buildings/${buildingId}/rooms`,
          body,
        )
      ).json()) as Room,
    onSuccess: async (_room, { buildingId }) => {
      for (const queryKey of [[BUILDINGS_KEY], roomsQuery(buildingId).queryKey]) {
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
    mutationFn: ({ id }: { id: string; buildingId: string }) => apiRequest('DELETE', `/api/rooms/${id}`),
    onSuccess: (_res, { buildingId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: roomsQuery(buildingId).queryKey }),
        queryClient.invalidateQueries({ queryKey: [BUILDINGS_KEY], exact: true }),
      ]),
  });
}

export type RoomAttachmentField = (typeof roomAttachmentFields)[number];

/**
 * Spec section 4, last step of the photo upload flow: attach the stored path to the room,
 * sending only that one field so nothing else on the room changes.
 */
export function useAttachToRoom() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, field, path }: { id: string; field: RoomAttachmentField; path: string }) =>
      (await (await apiRequest('PUT', `/api/rooms/${id}`, { [field]: path })).json()) as Room,
    onSuccess: (room) => {
      queryClient.setQueryData(roomQuery(room.id).queryKey, room);
      return queryClient.invalidateQueries({ queryKey: roomsQuery(room.buildingId).queryKey });
    },
  });
}
