// The sign-in screen's words, apart from single-sign-on.ts's schemas: that screen loads no zod.
import { ErrorCode } from './error-codes';

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
