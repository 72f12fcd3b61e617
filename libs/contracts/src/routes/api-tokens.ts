import { z } from 'zod';
import { apiTokenCreatedSchema, apiTokenCreateSchema, apiTokenSchema } from '../api-tokens';
import { idParamsSchema } from '../common';
import { type ApiRouteDef } from '../route-def';

/**
 * API tokens for automation: sent as `Authorization: Bearer cm_…` on any other /api route. These
 * routes take a signed-in session only, never a token.
 */
export const apiTokenRoutes = {
  listApiTokens: {
    method: 'GET',
    path: '/api/tokens',
    summary: 'Your API tokens, newest first (never the token itself), with when each was last used',
    tag: 'API tokens',
    access: 'user',
    response: z.array(apiTokenSchema),
  },
  createApiToken: {
    method: 'POST',
    path: '/api/tokens',
    summary:
      'Create an API token with a name, an expiry (at most a year away) and a scope: read (the default: GET only), write (also POST, PUT, PATCH and DELETE) or admin (also the administrator routes; administrators only, and with a current two-factor code in `code` when two-factor sign-in is on). The role follows the scope. The token is answered this once: only its hash is kept',
    tag: 'API tokens',
    access: 'user',
    body: apiTokenCreateSchema,
    response: apiTokenCreatedSchema,
    status: 201,
    // Not idempotent: a kept answer would keep the token, in clear, to answer it again.
  },
  deleteApiToken: {
    method: 'DELETE',
    path: '/api/tokens/:id',
    summary: "Revoke one of your API tokens (an administrator may revoke anyone's); it stops working at once",
    tag: 'API tokens',
    access: 'user',
    params: idParamsSchema,
    status: 204,
  },
} as const satisfies Record<string, ApiRouteDef>;
