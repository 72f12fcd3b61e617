import { z } from 'zod';
import { idSchema, requiredText, limits, timestampSchema } from './common';
import { totpCodeSchema } from './totp';
import { type UserRole, userRoleSchema } from './users';

/** Every token starts so, for secret scanners and for a person reading a leaked string. */
export const apiTokenPrefix = 'cm_';

/** The longest a token may live: a year, so that a forgotten one still ends. */
export const apiTokenMaxDays = 366;

/**
 * What a token may do: `read` only reads (GET); `write` also changes what any signed-in user may
 * change (POST, PUT, PATCH, DELETE); `admin` also what an administrator may do, and only an
 * administrator's token has it.
 */
export const apiTokenScopes = ['read', 'write', 'admin'] as const;
export const apiTokenScopeSchema = z.enum(apiTokenScopes, { message: 'Scope must be read, write or admin' });
export type ApiTokenScope = z.infer<typeof apiTokenScopeSchema>;

export const apiTokenScopeLabels: Record<ApiTokenScope, string> = {
  read: 'Read only',
  write: 'Read and change',
  admin: 'Administration',
};

/** The role a token of this scope has: the admin scope is an administrator's, the others a user's. */
export const roleOfScope = (scope: ApiTokenScope): UserRole => (scope === 'admin' ? 'admin' : 'user');

export const apiTokenCreateSchema = z.object({
  name: requiredText(limits.name, 'Name'),
  /** `read` unless said. */
  scope: apiTokenScopeSchema.optional(),
  /** Follows the scope (see roleOfScope); accepted when it agrees, for clients from before scopes. */
  role: userRoleSchema.optional(),
  /** A current code from the authenticator app: for the admin scope when two-factor sign-in is on. */
  code: totpCodeSchema.optional(),
  /** When it stops working: in the future, at most a year away. */
  expiresAt: z.string({ message: 'Expiry is required' }).pipe(
    z.iso.datetime({
      offset: true,
      message: 'Expiry must be a date and time, such as 2027-01-31T00:00:00Z',
    }),
  ),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateSchema>;

/** A token as it is listed: never the token itself, which only its hash is kept of. */
export const apiTokenSchema = z.object({
  id: idSchema,
  userId: idSchema,
  name: z.string(),
  role: userRoleSchema,
  scope: apiTokenScopeSchema,
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
  /** To the minute: written at most once a minute. */
  lastUsedAt: timestampSchema.nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The answer to a create: the token, this once. */
export const apiTokenCreatedSchema = apiTokenSchema.extend({ token: z.string() });
export type ApiTokenCreated = z.infer<typeof apiTokenCreatedSchema>;

export const apiTokenMessages = {
  notFound: 'No such API token. It may have been revoked.',
  roleTooHigh: 'A token cannot have a higher role than yours.',
  adminScopeForAdmins: 'Only administrators can create a token with the admin scope.',
  roleFollowsScope:
    'The role follows the scope: admin for the admin scope, user for read and write. Leave the role out, or choose the admin scope.',
  codeRequired:
    'Enter the current code from your authenticator app: a token with the admin scope needs it while two-factor sign-in is on.',
  expiryPast: 'Expiry must be in the future.',
  expiryTooFar: `Expiry must be at most ${apiTokenMaxDays} days away.`,
  /** A token is for automation; managing tokens takes a person signed in. */
  notForTokens: 'API tokens cannot list, create or revoke API tokens. Sign in to manage them.',
  invalid: 'This API token is not valid: it may have expired, been revoked, or belong to a deactivated user.',
} as const;

/** A token's request refused for its scope: names the scope it would need. */
export const apiTokenScopeRefused = (has: ApiTokenScope, needs: ApiTokenScope) =>
  `This API token has the ${has} scope; this request needs the ${needs} scope. Create a token with the ${needs} scope in Settings → API Tokens.`;
