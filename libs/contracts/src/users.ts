import { z } from 'zod';
import { flagSchema, idSchema, limits, optionalText, timestampSchema } from './common';

export const userRoles = ['user', 'admin'] as const;
export const userRoleSchema = z.enum(userRoles, { message: 'Role must be user or admin' });
export type UserRole = z.infer<typeof userRoleSchema>;
export const userRoleLabels: Record<UserRole, string> = { user: 'User', admin: 'Administrator' };

const username = z
  .string({ message: 'Username is required' })
  .trim()
  .min(1, { message: 'Username is required' })
  .max(64, { message: 'Username must be at most 64 characters' });

const password = z
  .string({ message: 'Password is required' })
  .min(1, { message: 'Password is required' })
  .max(256, { message: 'Password must be at most 256 characters' });

const email = z
  .union([z.literal(''), z.email({ message: 'Email must be a valid email address' })])
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
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user in User Management's list: whether failed sign-ins hold them back just now. */
export const userListItemSchema = userSchema.extend({ signInLocked: z.boolean() });
export type UserListItem = z.infer<typeof userListItemSchema>;

export const loginSchema = z.object({ username, password });
export type Login = z.infer<typeof loginSchema>;

const profile = {
  email,
  firstName: optionalText(limits.shortText, 'First name'),
  lastName: optionalText(limits.shortText, 'Last name'),
};

export const userCreateSchema = z.object({
  username,
  password,
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
  username,
  password: z
    .string({ message: 'Password must be text' })
    .max(256, { message: 'Password must be at most 256 characters' })
    .nullish()
    .transform((v) => (v ? v : undefined)),
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
} as const;
