/**
 * Whether a webhook may go to this URL, as far as its text tells: http(s) only and, where
 * ALERTS_WEBHOOK_ALLOWED_HOSTS is set, only its hosts. The addresses it resolves to are judged by
 * `WebhookTargets`, at save and at each connect. Null when allowed, else why not.
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
  if (allowedHosts && !allowedHosts.some((allowed) => hostMatches(host, allowed))) {
    return `Webhooks may only go to ${allowedHosts.join(', ')} (ALERTS_WEBHOOK_ALLOWED_HOSTS); ask whoever runs Classroom Monitor to add ${host}`;
  }
  return null;
}

function hostMatches(host: string, allowed: string): boolean {
  if (allowed.startsWith('*.')) return host.endsWith(allowed.slice(1));
  return host === allowed;
}
