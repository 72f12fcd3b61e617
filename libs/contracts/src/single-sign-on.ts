import { z } from 'zod';

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

export {
  isSingleSignOnError,
  SIGN_IN_ERROR_PARAM,
  type SingleSignOnError,
  singleSignOnMessages,
} from './single-sign-on-words';
