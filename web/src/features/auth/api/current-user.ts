import { type User } from '@cm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getQueryFn } from '../../../lib/api';

/** Signed out is a 401, answered as null rather than an error; never retried (spec section 1). */
export const currentUserQuery = queryOptions({
  queryKey: ['/api/auth/user'],
  queryFn: getQueryFn<User>({ on401: 'returnNull' }),
  retry: false,
});

export function useCurrentUser() {
  const { data, isPending } = useQuery(currentUserQuery);
  return { user: data ?? null, isLoading: isPending, isAdmin: data?.role === 'admin' };
}
