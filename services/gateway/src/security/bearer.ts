import type { Request } from 'express';

/**
 * The token of an `Authorization: Bearer …` header, or undefined without one. Any other scheme is
 * not ours (a proxy's Basic credentials) and leaves the request to its session.
 */
export function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header);
  return match ? (match[1] ?? '').trim() : undefined;
}
