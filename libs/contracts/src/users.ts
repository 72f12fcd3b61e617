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

export const loginSchema = z.object({ username, password });
export type Login = z.infer<typeof loginSchema>;

const profile = {
  email,
  firstName: optionalText(limits.shortText, 'First name'),
  lastName: optionalText(limits.shortText, 'Last name'),
  role: userRoleSchema.default('user'),
  isActive: flagSchema.default(1),
};

export const userCreateSchema = z.object({ username, password, ...profile });
export type UserCreate = z.infer<typeof userCreateSchema>;

/** On update a blank or absent password keeps the current one. */
export const userUpdateSchema = z.object({
  username,
  password: z
    .string()
    .max(256, { message: 'Password must be at most 256 characters' })
    .nullish()
    .transform((v) => (v ? v : undefined)),
  ...profile,
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;
