import { type Login, type TotpLogin, type User } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { currentUserQuery } from './current-user';

interface Handlers {
  onSuccess: () => void;
  onError: (e: Error) => void;
  /** The password was right and the account has two-factor sign-in: the code is the next step. */
  onChallenge?: (challenge: string) => void;
}

export function useSignIn({ onSuccess, onError, onChallenge }: Handlers) {
  const queryClient = useQueryClient();
  const signedIn = (user: User) => {
    queryClient.setQueryData(currentUserQuery.queryKey, user);
    onSuccess();
  };
  const password = useMutation({
    mutationFn: (credentials: Login) => apiJson(apiRoutes.login, undefined, credentials),
    onSuccess: (result) => ('totpRequired' in result ? onChallenge?.(result.challenge) : signedIn(result)),
    onError,
  });
  const code = useMutation({
    mutationFn: (body: TotpLogin) => apiJson(apiRoutes.loginTotp, undefined, body),
    onSuccess: signedIn,
    onError,
  });
  return { password, code };
}
