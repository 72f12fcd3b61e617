import { isSingleSignOnError, SIGN_IN_ERROR_PARAM, singleSignOnMessages } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';

type Address = Pick<Location, 'pathname' | 'search' | 'hash'>;

/**
 * The sentence for the refusal a single sign-on came back with (`?signInError=<code>`); null
 * for none, and for a code we do not know: only our own words are shown.
 */
export function signInErrorOf(search: string): string | null {
  const code = new URLSearchParams(search).get(SIGN_IN_ERROR_PARAM);
  return isSingleSignOnError(code) ? singleSignOnMessages[code] : null;
}

/** The address without the refusal: what the address bar keeps, and where a new sign-in returns. */
export function withoutSignInError({ pathname, search, hash }: Address): string {
  const params = new URLSearchParams(search);
  if (!params.has(SIGN_IN_ERROR_PARAM)) return pathname + search + hash;
  params.delete(SIGN_IN_ERROR_PARAM);
  const rest = params.toString();
  return pathname + (rest ? `?${rest}` : '') + hash;
}

/** A page to navigate to, not to fetch: the server sends the browser on to the identity provider. */
export const singleSignOnHref = (returnTo: string) =>
  `${apiRoutes.oidcStart.path}?returnTo=${encodeURIComponent(returnTo)}`;
