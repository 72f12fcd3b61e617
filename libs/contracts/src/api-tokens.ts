import { z } from 'zod';
import { idSchema, requiredText, limits, timestampSchema } from './common';
import { userRoleSchema } from './users';

/** Every token starts so, for secret scanners and for a person reading a leaked string. */
export const apiTokenPrefix = 'cm_';

/** The longest a token may live: a year, so that a forgotten one still ends. */
export const apiTokenMaxDays = 366;

export const apiTokenCreateSchema = z.object({
  name: requiredText(limits.name, 'Name'),
  /** Defaults to the creator's own role; never higher. */
  role: userRoleSchema.optional(),
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
  expiryPast: 'Expiry must be in the future.',
  expiryTooFar: `Expiry must be at most ${apiTokenMaxDays} days away.`,
  /** A token is for automation; managing tokens takes a person signed in. */
  notForTokens: 'API tokens cannot list, create or revoke API tokens. Sign in to manage them.',
  invalid: 'This API token is not valid: it may have expired, been revoked, or belong to a deactivated user.',
} as const;
