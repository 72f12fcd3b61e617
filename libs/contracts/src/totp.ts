import { z } from 'zod';
import { idSchema } from './common';
import { userSchema } from './users';

/** A six-digit code from the authenticator app, or one of the recovery codes (spaces and dashes ignored). */
export const totpCodeSchema = z
  .string({ message: 'Code is required' })
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { message: 'Code is required' })
      .max(32, { message: 'Code must be the 6 digits from the app or a recovery code' }),
  );

/**
 * POST /api/login for an account with two-factor sign-in: no session yet; the second step sends
 * the challenge back with a code (POST /api/login/totp). The challenge is signed by the gateway
 * and ends after a few minutes.
 */
export const totpChallengeSchema = z.object({ totpRequired: z.literal(true), challenge: z.string() });
export type TotpChallenge = z.infer<typeof totpChallengeSchema>;

export const loginResultSchema = z.union([userSchema, totpChallengeSchema]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const totpLoginSchema = z.object({
  challenge: z.string({ message: 'Challenge is required' }).min(1).max(1000),
  code: totpCodeSchema,
});
export type TotpLogin = z.infer<typeof totpLoginSchema>;

/** The Account screen's two-factor section. */
export const totpStatusSchema = z.object({
  enabled: z.boolean(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int().min(0),
  /** Whether the server can keep secrets (AUTH_TOTP_KEY is set): without it enrolment is refused. */
  available: z.boolean(),
  /** REQUIRE_ADMIN_TOTP applies to this user: nothing else works until they enrol. */
  required: z.boolean(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;

/** A new secret to scan (the web app shows the URL as a QR code) or type in; enrolment ends when a code from it is confirmed. */
export const totpSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;

export const totpConfirmSchema = z.object({ code: totpCodeSchema });
export type TotpConfirm = z.infer<typeof totpConfirmSchema>;

/** Shown once: only their hashes are kept. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Turning two-factor off or new recovery codes: a current code or the password proves it is the owner. */
export const totpProofSchema = z
  .object({
    code: totpCodeSchema.optional(),
    password: z.string().max(256, { message: 'Password must be at most 256 characters' }).optional(),
  })
  .refine((v) => Boolean(v.code) || Boolean(v.password), {
    message: 'Enter a code from the app or your password',
    path: ['code'],
  });
export type TotpProof = z.infer<typeof totpProofSchema>;

/** gateway → auth messages. */
export const totpUserMessageSchema = z.object({ userId: idSchema });
export const totpCodeMessageSchema = z.object({ userId: idSchema, code: totpCodeSchema });
export type TotpCodeMessage = z.infer<typeof totpCodeMessageSchema>;
export const totpProofMessageSchema = z.object({
  userId: idSchema,
  code: totpCodeSchema.optional(),
  password: z.string().max(256).optional(),
});
export type TotpProofMessage = z.infer<typeof totpProofMessageSchema>;
/** auth → gateway: the status as auth knows it (REQUIRE_ADMIN_TOTP is the gateway's). */
export const totpStateSchema = totpStatusSchema.omit({ required: true });

export const totpMessages = {
  invalidCode:
    'The code is wrong or was already used. Enter the current code from the app, or a recovery code.',
  challengeExpired: 'The sign-in took too long. Enter your username and password again.',
  unavailable:
    'Two-factor sign-in cannot be set up: the server has no AUTH_TOTP_KEY. Ask the administrator to set it (see the README).',
  alreadyEnabled: 'Two-factor sign-in is already on. Turn it off first to set it up again.',
  notStarted: 'Start the set-up again: no new key is waiting for a code.',
  notEnabled: 'Two-factor sign-in is not on for this account.',
  enrolmentRequired:
    'Administrators must set up two-factor sign-in first: open Account and scan the QR code with an authenticator app.',
  wrongPassword: 'The password is wrong.',
  unreadable:
    'The two-factor secret cannot be read with the current AUTH_TOTP_KEY (was the key changed?). Sign in with a recovery code, or ask an administrator to turn two-factor sign-in off in User Management.',
} as const;
