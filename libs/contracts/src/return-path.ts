/** Where a successful sign-in goes when the sign-in screen was shown at the app's root. */
export const HOME_PATH = '/buildings';

// Any origin would do: it only tells a path of this app from an address of another site.
const base = 'http://app.invalid';

/**
 * The sign-in screen is shown at whatever address a signed-out visitor opened (a room's QR code,
 * a bookmark); signing in stays there. Only a path of this app is kept: "//host" and "/\host"
 * are read by browsers as another site, so anything that would leave the origin goes home.
 */
export function returnPath(requested: string): string {
  if (!requested.startsWith('/') || requested.startsWith('//') || requested.startsWith('/\\'))
    return HOME_PATH;
  let url: URL;
  try {
    url = new URL(requested, base);
  } catch {
    return HOME_PATH;
  }
  if (url.origin !== base || url.pathname === '/') return HOME_PATH;
  return url.pathname + url.search + url.hash;
}
