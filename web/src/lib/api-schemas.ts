import { type ApiRouteName, apiRoutes } from '@cm/contracts';
import { type z } from 'zod';

/**
 * The contracts' response schemas, which the web checks each reply against (lib/api.ts): in a chunk
 * of their own, loaded beside the first call's answer, so that zod and every contract stay off the
 * first screen.
 */
export function replySchema(name: string | undefined): z.ZodType | undefined {
  const route = name && name in apiRoutes ? apiRoutes[name as ApiRouteName] : undefined;
  return route && 'response' in route ? route.response : undefined;
}
