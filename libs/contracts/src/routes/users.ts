import { ErrorCode } from '../errors';
import { z } from 'zod';
import { idParamsSchema } from '../common';
import { type ApiRouteDef } from '../route-def';
import { userCreateSchema, userListItemSchema, userSchema, userUpdateSchema } from '../users';

/** User Management (spec sections 2 and 7): administrators only. */
export const userRoutes = {
  listUsers: {
    method: 'GET',
    path: '/api/users',
    summary: 'Every user, by username, each saying whether failed sign-ins hold it back (signInLocked)',
    tag: 'Users',
    access: 'admin',
    response: z.array(userListItemSchema),
  },
  createUser: {
    method: 'POST',
    path: '/api/users',
    summary: 'Create a user (409 naming the field when the username or email is taken)',
    tag: 'Users',
    access: 'admin',
    body: userCreateSchema,
    response: userSchema,
    status: 201,
    idempotent: true,
    errors: [ErrorCode.USERNAME_TAKEN, ErrorCode.EMAIL_TAKEN],
  },
  updateUser: {
    method: 'PUT',
    path: '/api/users/:id',
    summary:
      'Edit a user; a blank or absent password keeps the current one, other fields left out keep their value. 409 for your own deactivation or the last active administrator',
    tag: 'Users',
    access: 'admin',
    params: idParamsSchema,
    body: userUpdateSchema,
    response: userSchema,
    errors: [
      ErrorCode.USERNAME_TAKEN,
      ErrorCode.EMAIL_TAKEN,
      ErrorCode.LAST_ADMIN,
      ErrorCode.SELF_CHANGE,
      ErrorCode.EXTERNAL_ACCOUNT,
    ],
  },
  deleteUser: {
    method: 'DELETE',
    path: '/api/users/:id',
    summary: 'Delete a user (409 for yourself or the last active administrator)',
    tag: 'Users',
    access: 'admin',
    params: idParamsSchema,
    status: 204,
    errors: [ErrorCode.LAST_ADMIN, ErrorCode.SELF_CHANGE],
  },
  clearSignInLock: {
    method: 'DELETE',
    path: '/api/users/:id/sign-in-lock',
    summary:
      "Forget a user's failed sign-ins, from every client and browser, so that they can sign in at once",
    tag: 'Users',
    access: 'admin',
    params: idParamsSchema,
    status: 204,
  },
} as const satisfies Record<string, ApiRouteDef>;
