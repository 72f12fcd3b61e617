import type { Request } from 'express';

/** The signed-in user's id, recorded as an object's owner; null when the session carries none. */
export function ownerOf(req: Request): string | null {
  const session = (req as Request & { session?: { userId?: unknown; user?: { id?: unknown } } }).session;
  const id = session?.userId ?? session?.user?.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}
