import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from '../lib/api';

/** Spec section 7: refetch on mount, focus and reconnect; always stale; no retention; no retry. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      queryFn: getQueryFn({ on401: 'throw' }),
      refetchOnMount: true,
      refetchOnWindowFocus: true,
      refetchOnReconnect: true,
      staleTime: 0,
      gcTime: 0,
      retry: false,
    },
    mutations: { retry: false },
  },
});
