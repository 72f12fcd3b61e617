import { apiRoutes } from '@cm/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson, nullOn401, queryKeyOf } from '../../../lib/api';

/** Signed out is a 401, answered as null rather than an error; never retried (spec section 1). */
export const currentUserQuery = queryOptions({
  queryKey: queryKeyOf(apiRoutes.currentUser),
  queryFn: () => nullOn401(apiJson(apiRoutes.currentUser)),
  retry: false,
});

export function useCurrentUser() {
  const { data, isPending } = useQuery(currentUserQuery);
  return { user: data ?? null, isLoading: isPending, isAdmin: data?.role === 'admin' };
}
