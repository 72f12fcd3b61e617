import { type PasswordChange } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useMutation } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';

/** The session that asks stays signed in: nothing it has loaded needs asking again. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (change: PasswordChange) => apiJson(apiRoutes.changePassword, undefined, change),
  });
}
