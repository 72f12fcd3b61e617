import { ErrorCode } from '../errors';
import { idParamsSchema } from '../common';
import { type ApiRouteDef } from '../route-def';
import {
  recoveryCodesSchema,
  totpConfirmSchema,
  totpLoginSchema,
  totpProofSchema,
  totpSetupSchema,
  totpStatusSchema,
} from '../totp';
import { passwordChangeSchema, userSchema } from '../users';

/**
 * The signed-in user's own account: the password, and two-factor sign-in (TOTP, RFC 6238). With
 * REQUIRE_ADMIN_TOTP an administrator without it reaches only these routes (and the session's)
 * until they have enrolled: `enrolment` marks them.
 */
export const accountRoutes = {
  loginTotp: {
    method: 'POST',
    path: '/api/login/totp',
    summary:
      "Sign-in's second step for an account with two-factor sign-in: the challenge POST /api/login answered with a 6-digit code or a recovery code; answers the user and sets the session cookie. 401 AUTH.TOTP_INVALID for a wrong or used code, 401 AUTH.TOTP_CHALLENGE_EXPIRED after 5 minutes, 429 like sign-in",
    tag: 'Session',
    access: 'public',
    body: totpLoginSchema,
    response: userSchema,
    errors: [ErrorCode.TOTP_INVALID, ErrorCode.TOTP_CHALLENGE_EXPIRED, ErrorCode.TOO_MANY_ATTEMPTS],
  },
  changePassword: {
    method: 'POST',
    path: '/api/account/password',
    summary:
      "Change one's own password, given the current one: the user's other sessions end, this one stays. 401 AUTH.INVALID_CREDENTIALS for a wrong current password (throttled like sign-in), 400 for a new password that is too easy to guess, 409 AUTH.EXTERNAL_ACCOUNT for a single sign-on user",
    tag: 'Account',
    access: 'user',
    body: passwordChangeSchema,
    status: 204,
    errors: [
      ErrorCode.INVALID_CREDENTIALS,
      ErrorCode.EXTERNAL_ACCOUNT,
      ErrorCode.PASSWORD_CHECKS_BUSY,
      ErrorCode.TOO_MANY_ATTEMPTS,
    ],
  },
  totpStatus: {
    method: 'GET',
    path: '/api/account/totp',
    summary: 'Whether two-factor sign-in is on for the signed-in user, and how many recovery codes are left',
    tag: 'Account',
    access: 'user',
    response: totpStatusSchema,
  },
  totpSetup: {
    method: 'POST',
    path: '/api/account/totp/setup',
    summary:
      'Starts enrolment: a new secret (as otpauth URL for a QR code, and as text to type in) that is used once a code from it is confirmed. 400 AUTH.TOTP_UNAVAILABLE without AUTH_TOTP_KEY',
    tag: 'Account',
    access: 'user',
    response: totpSetupSchema,
    errors: [ErrorCode.TOTP_UNAVAILABLE, ErrorCode.TOTP_STATE, ErrorCode.EXTERNAL_ACCOUNT],
  },
  totpEnable: {
    method: 'POST',
    path: '/api/account/totp/enable',
    summary:
      'Ends enrolment with a code from the new secret; answers 10 recovery codes, shown only this once',
    tag: 'Account',
    access: 'user',
    body: totpConfirmSchema,
    response: recoveryCodesSchema,
    errors: [
      ErrorCode.TOTP_UNAVAILABLE,
      ErrorCode.TOTP_STATE,
      ErrorCode.TOTP_INVALID,
      ErrorCode.EXTERNAL_ACCOUNT,
    ],
  },
  totpDisable: {
    method: 'POST',
    path: '/api/account/totp/disable',
    summary: 'Turns two-factor sign-in off, with a current code (or recovery code) or the password',
    tag: 'Account',
    access: 'user',
    body: totpProofSchema,
    response: totpStatusSchema,
    errors: [
      ErrorCode.TOTP_UNAVAILABLE,
      ErrorCode.TOTP_STATE,
      ErrorCode.TOTP_INVALID,
      ErrorCode.INVALID_CREDENTIALS,
      ErrorCode.EXTERNAL_ACCOUNT,
    ],
  },
  totpRecoveryCodes: {
    method: 'POST',
    path: '/api/account/totp/recovery-codes',
    summary:
      'New recovery codes in place of the old ones, with a current code or the password; shown only this once',
    tag: 'Account',
    access: 'user',
    body: totpProofSchema,
    response: recoveryCodesSchema,
    errors: [ErrorCode.TOTP_UNAVAILABLE, ErrorCode.TOTP_STATE, ErrorCode.TOTP_INVALID],
  },
  resetUserTotp: {
    method: 'DELETE',
    path: '/api/users/:id/totp',
    summary:
      "Turn off a user's two-factor sign-in (they lost their phone and their recovery codes): they sign in with the password alone until they enrol again",
    tag: 'Users',
    access: 'admin',
    params: idParamsSchema,
    status: 204,
    errors: [ErrorCode.TOTP_STATE, ErrorCode.EXTERNAL_ACCOUNT],
  },
} as const satisfies Record<string, ApiRouteDef>;
