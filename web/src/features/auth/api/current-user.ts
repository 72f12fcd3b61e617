import { apiRoutes } from '../../../lib/api-routes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson, NetworkError, nullOn401, queryKeyOf } from '../../../lib/api';

const queryKey = queryKeyOf(apiRoutes.currentUser);

/**
 * Signed out is a 401, answered as null rather than an error; never retried (spec section 1).
 * Without a network (the app reloaded in a basement, from the service worker) the last answer is
 * kept on the phone and used, so that the screens and the changes waiting open as they were; the
 * server still judges the session of every call once the connection is back.
 */
export const currentUserQuery = queryOptions({
  queryKey,
  queryFn: async () => {
    // Asked at once, not after the phone's store has loaded: the first screen waits on this answer.
    const answer = nullOn401(apiJson(apiRoutes.currentUser));
    answer.catch(() => undefined); // handled below, once the store's code is here
    // Without the store's code (its load failed) the answer is given as it is, and not kept.
    const reads = await import('../../../lib/offline/reads').catch(() => null);
    if (!reads) return answer;
    return reads.keptRead(
      queryKey,
      () => answer,
      (e) => e instanceof NetworkError,
    );
  },
  retry: false,
});

export function useCurrentUser() {
  const { data, isPending, error, refetch } = useQuery(currentUserQuery);
  return {
    user: data ?? null,
    isLoading: isPending,
    isAdmin: data?.role === 'admin',
    /** Why the session could not be checked at all (a 503, no network and nothing kept): not a sign-out. */
    checkFailed: data === undefined ? error : null,
    checkAgain: refetch,
  };
}
