import { type ApiRouteDef } from '../route-def';
import { loginResultSchema } from '../totp';
import { loginSchema, userSchema } from '../users';

/**
 * A signed-in browser gets its session's sign-out token in this cookie, which pages of ours can
 * read; GET /api/logout signs out only when it carries the token (a link or an image elsewhere
 * cannot know it).
 */
export const signOutToken = { cookie: 'cm.signout', query: 'token' } as const;

/** Sign-in and the session (spec sections 4 and 7). The session is the `cm.sid` cookie. */
export const authRoutes = {
  login: {
    method: 'POST',
    path: '/api/login',
    summary:
      'Sign in; answers the user and sets the session cookie, or for an account with two-factor sign-in `{ totpRequired: true, challenge }` and no session (then POST /api/login/totp). 401 for a wrong pair, 429 with Retry-After after repeated failures',
    tag: 'Session',
    access: 'public',
    body: loginSchema,
    response: loginResultSchema,
  },
  currentUser: {
    method: 'GET',
    path: '/api/auth/user',
    summary: 'The signed-in user (401 when signed out)',
    tag: 'Session',
    access: 'user',
    response: userSchema,
  },
  logout: {
    method: 'POST',
    path: '/api/logout',
    summary: 'Sign out: ends the session (also when there is none)',
    tag: 'Session',
    access: 'public',
    status: 204,
  },
  logoutNavigation: {
    method: 'GET',
    path: '/api/logout',
    summary:
      "Sign out by navigating here with ?token= the session's sign-out token (cookie cm.signout), as the web app does when POST fails; without that token nobody is signed out. Redirects to /",
    tag: 'Session',
    access: 'public',
    status: 303,
  },
} as const satisfies Record<string, ApiRouteDef>;
