import type { Request } from 'express';

/** The signed-in user's id, recorded as an object's owner; null when there is no session. */
export function ownerOf(req: Request): string | null {
  return req.session?.userId ?? null;
}
