import { type Access, type ApiTokenScope, apiTokenScopes } from '@cm/contracts';

/** Methods that change nothing, by HTTP's own rules. */
const reading = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The scope a token needs for a request: an administrator route needs `admin` whatever its method,
 * any other route `write` to change something and `read` to read.
 */
export function scopeNeeded(access: Access, method: string): ApiTokenScope {
  if (access === 'admin') return 'admin';
  return reading.has(method.toUpperCase()) ? 'read' : 'write';
}

/** Each scope allows what the ones before it do. */
export const scopeCovers = (has: ApiTokenScope, needs: ApiTokenScope) =>
  apiTokenScopes.indexOf(has) >= apiTokenScopes.indexOf(needs);
