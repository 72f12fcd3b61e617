import { isIP } from 'node:net';

/**
 * Whether a webhook may go to this URL. Administrators alone add channels, so the stance on
 * server-side request forgery is: http(s) only, never a link-local address (cloud metadata
 * services live there), never a redirect followed, and, where ALERTS_WEBHOOK_ALLOWED_HOSTS is set,
 * only its hosts. A name that resolves to an inside address is not caught here: that is what the
 * allow-list (or an egress policy) is for. Null when allowed, else why not.
 */
export function webhookUrlRefusal(value: string, allowedHosts: string[] | undefined): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'The URL is not a valid address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must be http:// or https://';
  const host = url.hostname.toLowerCase();
  const bare = host.replace(/^\[|\]$/g, '');
  if ((isIP(bare) === 4 && bare.startsWith('169.254.')) || (isIP(bare) === 6 && /^fe[89ab]/.test(bare))) {
    return `Webhooks may not go to a link-local address (${host})`;
  }
  if (allowedHosts && !allowedHosts.some((allowed) => hostMatches(host, allowed))) {
    return `Webhooks may only go to ${allowedHosts.join(', ')} (ALERTS_WEBHOOK_ALLOWED_HOSTS); ask whoever runs Classroom Monitor to add ${host}`;
  }
  return null;
}

function hostMatches(host: string, allowed: string): boolean {
  if (allowed.startsWith('*.')) return host.endsWith(allowed.slice(1));
  return host === allowed;
}
