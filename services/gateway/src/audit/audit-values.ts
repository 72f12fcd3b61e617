/** Fields whose values never enter the log: only that they were there (or changed). */
const secretKey = /password|secret|token|hash|key/i;
/** Names that look secret but hold none: which of a probe's secrets are set (never their values). */
const notSecret = new Set(['secretsSet']);
const isSecret = (key: string) => secretKey.test(key) && !notSecret.has(key);
export const REDACTED = '[redacted]';

/**
 * A copy with every secret-looking field's value replaced, at any depth, and a webhook address cut
 * to its origin (Slack's and Teams' put their credential in the path).
 */
export function redact(value: unknown, key = ''): unknown {
  if (isSecret(key)) return value === null || value === undefined ? value : REDACTED;
  if (key === 'url' && typeof value === 'string' && URL.canParse(value)) return `${new URL(value).origin}/…`;
  if (Array.isArray(value)) return value.map((item) => redact(item));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

export type Values = Record<string, unknown>;

const asValues = (value: unknown): Values | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (redact(value) as Values) : null;

/** Kept by every update (the time, the count of edits), so never a change of its own. */
const bookkeeping = new Set(['updatedAt', 'version']);

/**
 * An update's fields before and after, only those that changed. A secret field the request set
 * (a new password), or one the route replaces (`replaced`: recovery codes), shows as changed, with
 * neither value.
 */
export function changedFields(
  beforeRaw: unknown,
  afterRaw: unknown,
  body: unknown,
  replaced: string[] = [],
): { before: Values | null; after: Values | null } {
  const before = asValues(beforeRaw);
  const after = asValues(afterRaw);
  if (!before || !after) return { before, after };
  const changedBefore: Values = {};
  const changedAfter: Values = {};
  for (const key of Object.keys(after)) {
    if (bookkeeping.has(key)) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changedBefore[key] = before[key] ?? null;
    changedAfter[key] = after[key];
  }
  for (const key of [...secretsSetBy(body), ...replaced]) {
    changedBefore[key] = REDACTED;
    changedAfter[key] = REDACTED;
  }
  return { before: changedBefore, after: changedAfter };
}

/**
 * The secret fields a request body sets, at any depth, as paths (`password`, `probe.secrets`):
 * shown as changed, with neither value.
 */
function secretsSetBy(body: unknown, prefix = ''): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.entries(body).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    if (isSecret(key)) return value ? [path] : [];
    return secretsSetBy(value, path);
  });
}

export const valuesOf = asValues;
