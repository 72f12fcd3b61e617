import { apiRoutes } from '@cm/contracts';
import { type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { currentUserQuery } from './current-user';

/**
 * Spec sections 4 and 7: clear the cached user and reload. When the POST fails the browser
 * navigates to GET /api/logout, which ends the session and redirects to /.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await apiJson(apiRoutes.logout);
  } catch {
    window.location.assign(apiRoutes.logoutNavigation.path);
    return;
  }
  queryClient.setQueryData(currentUserQuery.queryKey, null);
  window.location.reload();
}
