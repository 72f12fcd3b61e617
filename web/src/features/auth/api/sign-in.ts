import { apiRoutes, type Login } from '@cm/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { currentUserQuery } from './current-user';

export function useSignIn({ onSuccess, onError }: { onSuccess: () => void; onError: (e: Error) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Login) => apiJson(apiRoutes.login, undefined, credentials),
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQuery.queryKey, user);
      onSuccess();
    },
    onError,
  });
}
