import { type User, type UserCreate, type UserUpdate } from '@cm/contracts';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';

export const usersQuery = queryOptions<User[]>({ queryKey: ['/api/users'] });

export type UserSave =
  | { id?: undefined; body: UserCreate }
  | { id: string; body: Omit<UserUpdate, 'password'> & { password?: string } };

/** Create (no id) or edit; afterwards the list of users is refreshed. */
export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: UserSave) =>
      (await (
        await apiRequest(id ? 'PUT' : 'POST', id ? `/api/users/${id}` : '/api/users', body)
      ).json()) as User,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', `/api/users/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersQuery.queryKey }),
  });
}
