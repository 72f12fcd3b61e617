import { z } from 'zod';
import { ErrorCode } from './errors';

/** What the sign-in screen offers beside the username and password form. */
export const signInOptionsSchema = z.object({
  /** OpenID Connect sign-in, when the server is set up for it: the button reads "Sign in with {displayName}". */
  singleSignOn: z.object({ displayName: z.string() }).nullable(),
});
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

/** `GET /api/auth/oidc/start`: where to come back to once signed in (a path of this app). */
export const oidcStartQuerySchema = z.object({
  returnTo: z.string().max(2000, { message: 'returnTo must be at most 2000 characters' }).optional(),
});

const parameter = z.string().max(4000).optional();

/**
 * `GET /api/auth/oidc/callback`: what the identity provider sends the browser back with, either
 * the code and state (RFC 6749 4.1.2), or an error (4.1.2.1); `iss` per RFC 9207.
 */
export const oidcCallbackQuerySchema = z.object({
  code: parameter,
  state: parameter,
  iss: parameter,
  session_state: parameter,
  error: parameter,
  error_description: parameter,
  error_uri: parameter,
});

/**
 * One sign-in under way: the values the provider's answer must match (state, nonce) and the PKCE
 * verifier. Auth makes it, the gateway keeps it sealed in a cookie of the browser that started
 * it, and gives it back with the provider's answer: no replica keeps anything in between.
 */
export const oidcTransactionSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(1),
  redirectUri: z.url(),
});
export type OidcTransaction = z.infer<typeof oidcTransactionSchema>;

/** gateway → auth: start a sign-in that comes back to `redirectUri` (the gateway's callback). */
export const oidcBeginMessageSchema = z.object({ redirectUri: z.url() });
export const oidcBeginResultSchema = z.object({
  authorizationUrl: z.url(),
  transaction: oidcTransactionSchema,
});
export type OidcBeginResult = z.infer<typeof oidcBeginResultSchema>;

/** gateway → auth: the callback's whole URL, as the browser requested it, and the sign-in it completes. */
export const oidcCompleteMessageSchema = z.object({
  callbackUrl: z.url(),
  transaction: oidcTransactionSchema,
});
export type OidcCompleteMessage = z.infer<typeof oidcCompleteMessageSchema>;

/**
 * The refusals of a single sign-on, by code. The callback is a page the browser was sent to, so
 * the gateway sends it on to the sign-in screen with `?signInError=<code>`, and the screen shows
 * the text of this table: only the code travels, so no link can put words of its own on the page.
 */
export const singleSignOnMessages = {
  [ErrorCode.SSO_NOT_CONFIGURED]:
    'Single sign-on is not set up on this server. Sign in with your username and password.',
  [ErrorCode.SSO_FAILED]: 'Single sign-on could not be completed. Try again.',
  [ErrorCode.SSO_EXPIRED]:
    'The sign-in took too long, or was started in another browser or tab. Try again from this page.',
  [ErrorCode.SSO_CANCELLED]: 'Sign-in was cancelled at the identity provider.',
  [ErrorCode.SSO_PROVIDER_UNAVAILABLE]: 'The identity provider did not answer. Try again in a moment.',
  [ErrorCode.SSO_NO_USERNAME]:
    'The identity provider did not say your username. Ask the administrator to check OIDC_USERNAME_CLAIM.',
  [ErrorCode.SSO_ACCOUNT_CONFLICT]:
    'Your username already belongs to an account that signs in with a password. Ask an administrator to rename or delete that account, then try again.',
  [ErrorCode.ACCOUNT_DEACTIVATED]: 'Your account is deactivated. Ask an administrator to reactivate it.',
} as const;
export type SingleSignOnError = keyof typeof singleSignOnMessages;

export const isSingleSignOnError = (code: string | null | undefined): code is SingleSignOnError =>
  code != null && Object.hasOwn(singleSignOnMessages, code);

/** The query parameter the sign-in screen reads a refusal's code from. */
export const SIGN_IN_ERROR_PARAM = 'signInError';
