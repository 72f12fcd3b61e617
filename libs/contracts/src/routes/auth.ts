import { type ApiRouteDef } from '../route-def';
import { loginSchema, userSchema } from '../users';

/** Sign-in and the session (spec sections 4 and 7). The session is the `cm.sid` cookie. */
export const authRoutes = {
  login: {
    method: 'POST',
    path: '/api/login',
    summary:
      'Sign in; answers the user and sets the session cookie. 401 for a wrong pair, 429 with Retry-After after repeated failures',
    tag: 'Session',
    access: 'public',
    body: loginSchema,
    response: userSchema,
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
    summary: 'Sign out by navigating here (the web app does when POST fails); redirects to /',
    tag: 'Session',
    access: 'public',
    status: 303,
  },
} as const satisfies Record<string, ApiRouteDef>;
