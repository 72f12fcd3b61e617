import { apiRoutes } from '../../../lib/api-routes';
import { useQuery } from '@tanstack/react-query';
import { apiQuery } from '../../../lib/api';

export const signInOptionsQuery = apiQuery(apiRoutes.signInOptions);

/**
 * The identity provider the sign-in screen offers, or null: also while the answer is on its way
 * or when the call fails, so that the username and password form never waits for it.
 */
export function useSingleSignOn() {
  const { data } = useQuery(signInOptionsQuery);
  return data?.singleSignOn ?? null;
}
