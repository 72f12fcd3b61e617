import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { currentUserQuery } from '../features/auth/api/current-user';
import { ApiError, getQueryFn } from '../lib/api';

/**
 * A 401 from any call means the session ended (expired, or the account was deactivated): ask
 * who is signed in again, so that the sign-in screen replaces a screen of refused calls.
 */
const onError = (error: unknown) => {
  if (error instanceof ApiError && error.status === 401)
    void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
};

/**
 * Spec section 7: refetch on mount, focus and reconnect; always stale; no retention; no retry.
 * Calls go out even when the browser says it is offline ("always"): paused ones would show
 * placeholders and "Adding..." until the signal came back, and then save on their own; failing
 * at once shows the offline state or the save's failure toast instead. A screen that failed
 * offline loads again by itself on reconnect (always stale).
 */
export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchOnMount: true,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
      staleTime: 0,
      gcTime: 0,
      retry: false,
      networkMode: 'always',
    },
    mutations: { retry: false, networkMode: 'always' },
  },
});
