import { z } from 'zod';
import { flagSchema, idSchema, limits, optionalText, timestampSchema } from './common';

export const userRoles = ['user', 'admin'] as const;
export const userRoleSchema = z.enum(userRoles, { message: 'Role must be user or admin' });
export type UserRole = z.infer<typeof userRoleSchema>;
export const userRoleLabels: Record<UserRole, string> = { user: 'User', admin: 'Administrator' };

/**
 * Characters a person cannot see or type apart: controls, format characters (zero-width space and
 * joiners, direction marks, the byte-order mark) and the other default-ignorable ones (Hangul
 * fillers, variation selectors). Two usernames that differ only by one would look the same.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * NFKC first, so that compatibility forms ("ｃｈｉｅｆ", ligatures) are the name they look like,
 * and the length limit counts what is stored. Case is ignored by the unique index and at sign-in.
 */
export const usernameSchema = z
  .string({ message: 'Username is required' })
  .normalize('NFKC')
  .trim()
  .min(1, { message: 'Username is required' })
  .max(64, { message: 'Username must be at most 64 characters' })
  .refine((v) => !invisible.test(v), {
    message: 'Username cannot contain control characters or invisible characters such as zero-width spaces',
  });

const password = z
  .string({ message: 'Password is required' })
  .min(1, { message: 'Password is required' })
  .max(256, { message: 'Password must be at most 256 characters' });

/**
 * The least length of a new or changed local password. Sign-in takes any length: passwords set
 * before the rule still sign in, and are held to it when next changed. Auth also refuses the
 * 10,000 most common passwords, which needs its list and so is not part of this schema.
 */
export const passwordMinLength = 12;
const tooShort = `Password must be at least ${passwordMinLength} characters`;
// An empty one is only "required", not also "too short".
const newPassword = password.refine((v) => v.length === 0 || v.length >= passwordMinLength, {
  message: tooShort,
});

const email = z
  .union([
    z.literal(''),
    z
      .email({ message: 'Email must be a valid email address' })
      .max(254, { message: 'Email must be at most 254 characters' }),
  ])
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null));

/** A user as every call returns it: the password never leaves the auth service. */
export const userSchema = z.object({
  id: idSchema,
  username: z.string(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  role: userRoleSchema,
  isActive: flagSchema,
  /** Two-factor sign-in (TOTP) is on: sign-in asks for a code after the password. */
  totpEnabled: z.boolean(),
  /**
   * Signs in through the identity provider (OpenID Connect): no password here, and the role
   * follows the provider's groups at each sign-in.
   */
  external: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user in User Management's list: whether failed sign-ins hold them back just now. */
export const userListItemSchema = userSchema.extend({ signInLocked: z.boolean() });
export type UserListItem = z.infer<typeof userListItemSchema>;

export const loginSchema = z.object({ username: usernameSchema, password });
export type Login = z.infer<typeof loginSchema>;

/**
 * gateway → auth: a sign-in, and whether the browser holds the device cookie of a past sign-in
 * of that username; auth checks those passwords first when checks have to wait.
 */
export const loginMessageSchema = loginSchema.extend({ knownDevice: z.boolean().default(false) });
export type LoginMessage = z.infer<typeof loginMessageSchema>;

/**
 * auth → gateway: a user with the version of their sessions. Auth raises the version when the
 * password changes or the account is deactivated; a session signed in under an older one is over.
 * Only the gateway sees it: it is not part of any API reply.
 */
export const sessionUserSchema = z.object({ user: userSchema, sessionVersion: z.number().int().min(0) });
export type SessionUser = z.infer<typeof sessionUserSchema>;

const profile = {
  email,
  firstName: optionalText(limits.shortText, 'First name'),
  lastName: optionalText(limits.shortText, 'Last name'),
};

export const userCreateSchema = z.object({
  username: usernameSchema,
  password: newPassword,
  ...profile,
  role: userRoleSchema.default('user'),
  isActive: flagSchema.default(1),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/**
 * The edit form sends the create fields. A blank or absent password keeps the current one; any
 * other field left out keeps its value (no default here: an edit that omits the role must not
 * demote an administrator).
 */
export const userUpdateSchema = z.object({
  username: usernameSchema,
  password: z
    .string({ message: 'Password must be text' })
    .max(256, { message: 'Password must be at most 256 characters' })
    .nullish()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= passwordMinLength, { message: tooShort }),
  email: email.optional(),
  firstName: profile.firstName.optional(),
  lastName: profile.lastName.optional(),
  role: userRoleSchema.optional(),
  isActive: flagSchema.optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** gateway → auth: who asks matters (nobody deletes or deactivates themself). */
export const userIdMessageSchema = z.object({ id: idSchema });
export type UserIdMessage = z.infer<typeof userIdMessageSchema>;

export const userCreateMessageSchema = z.object({ actorId: idSchema, user: userCreateSchema });
export type UserCreateMessage = z.infer<typeof userCreateMessageSchema>;

export const userUpdateMessageSchema = z.object({
  actorId: idSchema,
  id: idSchema,
  changes: userUpdateSchema,
});
export type UserUpdateMessage = z.infer<typeof userUpdateMessageSchema>;

export const userDeleteMessageSchema = z.object({ actorId: idSchema, id: idSchema });
export type UserDeleteMessage = z.infer<typeof userDeleteMessageSchema>;

/** What a person reads when a sign-in or an account change is refused. */
export const authMessages = {
  invalidCredentials: 'Invalid username or password',
  unauthenticated: 'Sign in to continue.',
  forbidden: 'Only administrators can do this.',
  selfDelete: 'You cannot delete your own account. Ask another administrator.',
  selfDeactivate: 'You cannot deactivate your own account. Ask another administrator.',
  lastAdmin: 'This is the last active administrator. Make another user an active administrator first.',
  userNotFound: 'No such user. It may have been deleted.',
  passwordChecksBusy: 'The server is busy checking passwords. Try again in a moment.',
  passwordTooShort: tooShort,
  commonPassword: 'This password is one of the 10,000 most common passwords. Choose a less common one.',
  externalPassword:
    'This user signs in through single sign-on and has no password here: the identity provider keeps it.',
  externalRole:
    "This user's role follows their groups at the identity provider (OIDC_ADMIN_GROUPS), at each sign-in.",
  externalTotp:
    'This account signs in through single sign-on: two-factor sign-in is set up at the identity provider.',
} as const;
