import type { Request } from 'express';
import { type SignedInRequest } from '../identity/current-user';

/** The caller's id (signed in, or by API token), recorded as an object's owner; null for nobody. */
export function ownerOf(req: Request): string | null {
  return (req as SignedInRequest).user?.id ?? req.session?.userId ?? null;
}
