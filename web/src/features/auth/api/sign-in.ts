import { type Login, type User } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { currentUserQuery } from './current-user';

export function useSignIn({ onSuccess, onError }: { onSuccess: () => void; onError: (e: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (credentials: Login) =>
      (await (await apiRequest('POST', '/api/login', credentials)).json()) as User,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQuery.queryKey, user);
      onSuccess();
    },
    onError,
  });
}
