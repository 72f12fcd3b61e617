import { type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { currentUserQuery } from './current-user';

/**
 * Spec sections 4 and 7: clear the cached user and reload. When the POST fails the browser
 * navigates to GET /api/logout, which ends the session and redirects to /.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await apiRequest('POST', '/api/logout');
  } catch {
    window.location.assign('/api/logout');
    return;
  }
  queryClient.setQueryData(currentUserQuery.queryKey, null);
  window.location.reload();
}
