import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ApiBody, apiCreate, apiJson, apiQuery } from '../../../lib/api';
import { useSubmissionKey } from '../../../lib/submission-key';

export const usersQuery = apiQuery(apiRoutes.listUsers);

type UserSave =
  | { id?: undefined; body: ApiBody<typeof apiRoutes.createUser> }
  | { id: string; body: ApiBody<typeof apiRoutes.updateUser> };

/** Create (no id) or edit; afterwards the list of users is refreshed. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (save: UserSave) =>
      save.id === undefined
        ? apiCreate(apiRoutes.createUser, submission.keyFor(save.body), undefined, save.body)
        : apiJson(apiRoutes.updateUser, { id: save.id }, save.body),
    onSuccess: () => {
      submission.saved();
      return queryClient.invalidateQueries({ queryKey: usersQuery.queryKey });
    },
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

/** Turns a user's two-factor sign-in off (a lost phone and lost recovery codes). */
export function useResetTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiJson(apiRoutes.resetUserTotp, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}
