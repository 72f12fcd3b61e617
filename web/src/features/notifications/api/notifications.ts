import { type ChannelCreateInput, type QuietHours } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson, apiQuery, queryKeyOf } from '../../../lib/api';

export const channelsQuery = apiQuery(apiRoutes.listChannels);

/** Which kinds of channel this server can send (e-mail needs an SMTP server), and why not. */
export const channelTypesQuery = apiQuery(apiRoutes.channelTypes);

/** The buildings a channel may be kept to, and whose quiet hours are set. */
export const buildingsQuery = apiQuery(apiRoutes.listBuildings);

/** The room's open alert (at most one); live `alert` events refetch it. */
export const roomAlertsQuery = (roomId: string) => apiQuery(apiRoutes.listOpenAlerts, { roomId });

/** The delivery log; the key holds the filter, so each filter is cached on its own. */
export const deliveriesQuery = (filter: DeliveryFilter = {}) =>
  apiQuery(
    apiRoutes.listDeliveries,
    // Only the parameters given: an absent one must not arrive as "undefined".
    Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)),
  );

/** The log's filter as the query string carries it. */
export type DeliveryFilter = Partial<Record<'channelId' | 'state' | 'cursor', string>>;

const deliveriesKey = queryKeyOf(apiRoutes.listDeliveries);

type ChannelSave = { id?: string; body: ChannelCreateInput };

/** Create (no id; the answer holds a webhook's secret, this once) or edit; then the list refreshes. */
export function useSaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: ChannelSave) =>
      save.id === undefined
        ? apiJson(apiRoutes.createChannel, undefined, save.body)
        : apiJson(apiRoutes.updateChannel, { id: save.id }, save.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQuery.queryKey }),
  });
}

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteChannel, { id }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: channelsQuery.queryKey }),
        queryClient.invalidateQueries({ queryKey: deliveriesKey }),
      ]),
  });
}

/** Sends a test message; the log then shows it. */
export function useTestChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.testChannel, { id }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey }),
  });
}

/** A webhook's new signing secret, answered this once. */
export function useRotateSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.rotateChannelSecret, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: channelsQuery.queryKey }),
  });
}

/** A building's teaching hours (null: alerts go out at any hour). */
export const quietHoursQuery = (buildingId: string) => apiQuery(apiRoutes.getQuietHours, { buildingId });

/** Sets (hours) or removes (null) a building's teaching hours; the answer is what is now stored. */
export function useSaveQuietHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ buildingId, hours }: { buildingId: string; hours: QuietHours | null }) =>
      hours === null
        ? apiJson(apiRoutes.clearQuietHours, { buildingId })
        : apiJson(apiRoutes.setQuietHours, { buildingId }, hours),
    onSuccess: (stored) => queryClient.setQueryData(quietHoursQuery(stored.buildingId).queryKey, stored),
  });
}
