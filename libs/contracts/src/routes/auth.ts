import { ErrorCode } from '../errors';
import { type ApiRouteDef } from '../route-def';
import { oidcCallbackQuerySchema, oidcStartQuerySchema, signInOptionsSchema } from '../single-sign-on';
import { loginResultSchema } from '../totp';
import { loginSchema, userSchema } from '../users';

export { signOutToken } from '../sign-out-token';

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
    errors: [ErrorCode.INVALID_CREDENTIALS, ErrorCode.TOO_MANY_ATTEMPTS, ErrorCode.PASSWORD_CHECKS_BUSY],
  },
  currentUser: {
    method: 'GET',
    path: '/api/auth/user',
    summary: 'The signed-in user (401 when signed out)',
    tag: 'Session',
    access: 'user',
    response: userSchema,
  },
  signInOptions: {
    method: 'GET',
    path: '/api/auth/options',
    summary:
      'What the sign-in screen offers beside the username and password form: single sign-on (OpenID Connect) with its display name, or null',
    tag: 'Session',
    access: 'public',
    response: signInOptionsSchema,
  },
  oidcStart: {
    method: 'GET',
    path: '/api/auth/oidc/start',
    summary:
      "Single sign-on: a page to navigate to (not to fetch). Redirects to the identity provider's sign-in, which returns to /api/auth/oidc/callback; `returnTo` is the path of this app to end on. Without single sign-on set up, redirects to the sign-in screen with ?signInError=AUTH.SSO_NOT_CONFIGURED",
    tag: 'Session',
    access: 'public',
    query: oidcStartQuerySchema,
    status: 303,
    errors: [ErrorCode.SSO_NOT_CONFIGURED, ErrorCode.SSO_PROVIDER_UNAVAILABLE],
  },
  oidcCallback: {
    method: 'GET',
    path: '/api/auth/oidc/callback',
    summary:
      'Where the identity provider sends the browser back (register this URL with it). Completes the sign-in (authorization code with PKCE, state and nonce checked), creates or updates the external user, starts the session and redirects to where the sign-in started; a refusal redirects to the sign-in screen with ?signInError=<code>',
    tag: 'Session',
    access: 'public',
    query: oidcCallbackQuerySchema,
    status: 303,
    errors: [
      ErrorCode.SSO_NOT_CONFIGURED,
      ErrorCode.SSO_FAILED,
      ErrorCode.SSO_EXPIRED,
      ErrorCode.SSO_CANCELLED,
      ErrorCode.SSO_PROVIDER_UNAVAILABLE,
      ErrorCode.SSO_NO_USERNAME,
      ErrorCode.SSO_ACCOUNT_CONFLICT,
      ErrorCode.ACCOUNT_DEACTIVATED,
    ],
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
