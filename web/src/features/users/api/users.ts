import { apiRoutes } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiJson, apiQuery } from '../../../lib/api';

export const usersQuery = apiQuery(apiRoutes.listUsers);

type UserSave =
  | { id?: undefined; body: ApiBody<typeof apiRoutes.createUser> }
  | { id: string; body: ApiBody<typeof apiRoutes.updateUser> };

/** Create (no id) or edit; afterwards the list of users is refreshed. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: UserSave) =>
      save.id === undefined
        ? apiJson(apiRoutes.createUser, undefined, save.body)
        : apiJson(apiRoutes.updateUser, { id: save.id }, save.body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.deleteUser, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

/** Forgets a user's failed sign-ins; the list then no longer shows them locked. */
export function useClearSignInLock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.clearSignInLock, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}
