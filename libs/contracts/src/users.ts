import { z } from 'zod';
import { flagSchema, idSchema, limits, optionalText, timestampSchema } from './common';
import { passwordMinLength, tooShort, userRoles } from './user-words';

export { authMessages, passwordMinLength, userRoleLabels, userRoles } from './user-words';

export const userRoleSchema = z.enum(userRoles, { message: 'Role must be user or admin' });
export type UserRole = z.infer<typeof userRoleSchema>;

/**
 * Characters a person cannot see or type apart: controls, format characters (zero-width space and
 * joiners, direction marks, the byte-order mark) and the other default-ignorable ones (Hangul
 * fillers, variation selectors). Two usernames that differ only by one would look the same.
 */
const invisible = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * NFKC first, so that compatibility forms ("ｃｈｉｅｆ", ligatures) are the name they look like,
 * and the length limit counts what is stored. Case is ignored by the unique index and at sign-in.
 */
export const usernameSchema = z
  .string({ message: 'Username is required' })
  .normalize('NFKC')
  .trim()
  .min(1, { message: 'Username is required' })
  .max(64, { message: 'Username must be at most 64 characters' })
  .refine((v) => !invisible.test(v), {
    message: 'Username cannot contain control characters or invisible characters such as zero-width spaces',
  });

/**
 * Scripts told apart in a username. Letters of Common and Inherited script (digits, punctuation,
 * combining marks) belong to none; a letter of a script not listed counts as "another script".
 */
const scriptNames = (
  'Latin Greek Cyrillic Armenian Georgian Cherokee Coptic Hebrew Arabic Syriac Thaana Devanagari ' +
  'Bengali Gurmukhi Gujarati Oriya Tamil Telugu Kannada Malayalam Sinhala Thai Lao Tibetan Myanmar ' +
  'Ethiopic Khmer Mongolian Han Hiragana Katakana Bopomofo Hangul'
).split(' ');
const scriptTests = scriptNames.map((name) => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));
const noScript = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Scripts written together (Unicode UTS #39, "highly restrictive"): Japanese, Chinese, Korean. */
const writtenTogether = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
].map((set) => new Set<string>(set));

/** The scripts of a name's letters, in the order they first appear. */
export function scriptsOf(text: string): string[] {
  const found = new Set<string>();
  for (const char of text) {
    if (noScript.test(char)) continue;
    found.add(scriptTests.find((script) => script.test.test(char))?.name ?? 'another script');
  }
  return [...found];
}

/**
 * Letters of two scripts in one name ("раul" with a Cyrillic р and а) are how one user's name is
 * made to look like another's, so a new or renamed user is held to one script. Sign-in is not:
 * it only finds a name that is already there.
 */
export const newUsernameSchema = usernameSchema.superRefine((username, ctx) => {
  const scripts = scriptsOf(username);
  if (scripts.length < 2 || writtenTogether.some((set) => scripts.every((s) => set.has(s)))) return;
  ctx.addIssue({
    code: 'custom',
    message: `Username mixes ${scripts.join(' and ')} letters, which can make it look like another user's name. Use the letters of one alphabet.`,
  });
});

const password = z
  .string({ message: 'Password is required' })
  .min(1, { message: 'Password is required' })
  .max(256, { message: 'Password must be at most 256 characters' });

// An empty one is only "required", not also "too short".
const newPassword = password.refine((v) => v.length === 0 || v.length >= passwordMinLength, {
  message: tooShort,
});

const email = z
  .union([
    z.literal(''),
    z
      .email({ message: 'Email must be a valid email address' })
      .max(254, { message: 'Email must be at most 254 characters' }),
  ])
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
  /** Two-factor sign-in (TOTP) is on: sign-in asks for a code after the password. */
  totpEnabled: z.boolean(),
  /**
   * Signs in through the identity provider (OpenID Connect): no password here, and the role
   * follows the provider's groups at each sign-in.
   */
  external: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type User = z.infer<typeof userSchema>;

/** A user in User Management's list: whether failed sign-ins hold them back just now. */
export const userListItemSchema = userSchema.extend({ signInLocked: z.boolean() });
export type UserListItem = z.infer<typeof userListItemSchema>;

export const loginSchema = z.object({ username: usernameSchema, password });
export type Login = z.infer<typeof loginSchema>;

/**
 * gateway → auth: a sign-in, and whether the browser holds the device cookie of a past sign-in
 * of that username; auth checks those passwords first when checks have to wait.
 */
export const loginMessageSchema = loginSchema.extend({ knownDevice: z.boolean().default(false) });
export type LoginMessage = z.infer<typeof loginMessageSchema>;

/**
 * auth → gateway: a user with the version of their sessions. Auth raises the version when the
 * password changes or the account is deactivated; a session signed in under an older one is over.
 * Only the gateway sees it: it is not part of any API reply.
 */
export const sessionUserSchema = z.object({ user: userSchema, sessionVersion: z.number().int().min(0) });
export type SessionUser = z.infer<typeof sessionUserSchema>;

const profile = {
  email,
  firstName: optionalText(limits.shortText, 'First name'),
  lastName: optionalText(limits.shortText, 'Last name'),
};

export const userCreateSchema = z.object({
  username: newUsernameSchema,
  password: newPassword,
  ...profile,
  role: userRoleSchema.default('user'),
  isActive: flagSchema.default(1),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/**
 * The edit form sends the create fields. A blank or absent password keeps the current one; any
 * other field left out keeps its value (no default here: an edit that omits the role must not
 * demote an administrator).
 */
export const userUpdateSchema = z.object({
  username: newUsernameSchema,
  password: z
    .string({ message: 'Password must be text' })
    .max(256, { message: 'Password must be at most 256 characters' })
    .nullish()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || v.length >= passwordMinLength, { message: tooShort }),
  email: email.optional(),
  firstName: profile.firstName.optional(),
  lastName: profile.lastName.optional(),
  role: userRoleSchema.optional(),
  isActive: flagSchema.optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/**
 * The Account screen: a local user changes their own password. The current one proves it is the
 * owner (a session left open on a shared computer is not enough).
 */
export const passwordChangeSchema = z.object({
  currentPassword: z
    .string({ message: 'Current password is required' })
    .min(1, { message: 'Current password is required' })
    .max(256, { message: 'Current password must be at most 256 characters' }),
  newPassword: newPassword,
});
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

/** gateway → auth: who asks matters (nobody deletes or deactivates themself). */
export const userIdMessageSchema = z.object({ id: idSchema });
export type UserIdMessage = z.infer<typeof userIdMessageSchema>;

/**
 * The request id of the gateway's request that asked, when the gateway asked: its audit log has the
 * entry (with the person and address), so auth's account event is not recorded a second time.
 */
const viaRequest = z.string().min(1).max(128).optional();

export const userCreateMessageSchema = z.object({
  actorId: idSchema,
  user: userCreateSchema,
  requestId: viaRequest,
});
export type UserCreateMessage = z.infer<typeof userCreateMessageSchema>;

export const userUpdateMessageSchema = z.object({
  actorId: idSchema,
  id: idSchema,
  changes: userUpdateSchema,
  requestId: viaRequest,
});
export type UserUpdateMessage = z.infer<typeof userUpdateMessageSchema>;

export const userDeleteMessageSchema = z.object({ actorId: idSchema, id: idSchema });
export type UserDeleteMessage = z.infer<typeof userDeleteMessageSchema>;

export const passwordChangeMessageSchema = passwordChangeSchema.extend({ userId: idSchema });
export type PasswordChangeMessage = z.infer<typeof passwordChangeMessageSchema>;

/** What decides what an account may do: the fields every change of them is audited for. */
export const accountAccessSchema = z.object({ role: userRoleSchema, isActive: flagSchema });
export type AccountAccess = z.infer<typeof accountAccessSchema>;

/**
 * auth → the gateway's audit log, on JetStream: an account was created, or its role or active flag
 * changed, whoever sent the message. Published by auth inside the change's transaction, so no such
 * change commits without it. `actorId` is the one the message named; `requestId` the gateway's
 * request, when the gateway asked.
 */
export const accountChangedEventSchema = z.object({
  userId: idSchema,
  username: z.string(),
  actorId: idSchema.nullable(),
  requestId: z.string().nullable(),
  before: accountAccessSchema.nullable(),
  after: accountAccessSchema,
  at: timestampSchema,
});
export type AccountChangedEvent = z.infer<typeof accountChangedEventSchema>;
