import {
  ErrorCode,
  limits,
  optionalText,
  singleSignOnMessages,
  type UserRole,
  usernameSchema,
} from '@cm/contracts';
import { AppError } from '@cm/platform';
import { z } from 'zod';
import { type Config } from '../config';

/** Who the provider says signed in, as a user of ours. */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  role: UserRole;
}

export type IdentitySettings = Pick<
  Config,
  'OIDC_USERNAME_CLAIM' | 'OIDC_GROUPS_CLAIM' | 'OIDC_ADMIN_GROUPS'
>;

const email = z.email().max(254);

/** The profile's names held to the rule of the user form's fields: one line, no control characters. */
const firstName = optionalText(limits.shortText, 'First name');
const lastName = optionalText(limits.shortText, 'Last name');

/** A claim's text, or null when it is absent, not text, or does not fit. */
function text(claims: Record<string, unknown>, name: string, schema: typeof firstName): string | null {
  const parsed = schema.safeParse(claims[name]);
  return parsed.success ? parsed.data : null;
}

/** A groups claim is a list of names (Keycloak, Okta) or ids (Entra ID); one may come as plain text. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

/**
 * The user an ID token's (and UserInfo's) claims describe. The subject, not the username, names
 * the account: a renamed person keeps it. The role is decided afresh at every sign-in, so that
 * leaving the administrators' group at the provider takes the rights away here.
 */
export function identityOf(
  issuer: string,
  claims: Record<string, unknown>,
  settings: IdentitySettings,
): ExternalIdentity {
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  const username = usernameSchema.safeParse(claims[settings.OIDC_USERNAME_CLAIM]);
  if (!subject || !username.success)
    throw new AppError(ErrorCode.SSO_NO_USERNAME, singleSignOnMessages[ErrorCode.SSO_NO_USERNAME]);
  const address = email.safeParse(claims.email);
  const groups = groupsOf(claims[settings.OIDC_GROUPS_CLAIM]);
  return {
    issuer,
    subject,
    username: username.data,
    email: address.success ? address.data.toLowerCase() : null,
    firstName: text(claims, 'given_name', firstName),
    lastName: text(claims, 'family_name', lastName),
    role: groups.some((g) => settings.OIDC_ADMIN_GROUPS.includes(g)) ? 'admin' : 'user',
  };
}
