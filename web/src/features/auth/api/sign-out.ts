import { signOutToken } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { type QueryClient } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { currentUserQuery } from './current-user';

/** The session's sign-out token, which the gateway hands the signed-in browser in a cookie. */
function signOutTokenOf(cookies: string): string {
  for (const pair of cookies.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === signOutToken.cookie) return pair.slice(at + 1).trim();
  }
  return '';
}

/** Where the browser navigates when the POST fails: GET /api/logout signs out only with the token. */
export function signOutNavigation(cookies: string): string {
  const query = new URLSearchParams({ [signOutToken.query]: signOutTokenOf(cookies) });
  return `${apiRoutes.logoutNavigation.path}?${query.toString()}`;
}

/**
 * Spec sections 4 and 7: clear the cached user and reload. When the POST fails the browser
 * navigates to GET /api/logout with the session's sign-out token, which ends the session and
 * redirects to /.
 */
export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await apiJson(apiRoutes.logout);
  } catch {
    window.location.assign(signOutNavigation(document.cookie));
    return;
  }
  queryClient.setQueryData(currentUserQuery.queryKey, null);
  window.location.reload();
}
