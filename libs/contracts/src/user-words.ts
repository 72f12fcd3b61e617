// Without zod: the web app's first screens read them (issue 37's budget).

export const userRoles = ['user', 'admin'] as const;
export const userRoleLabels: Record<(typeof userRoles)[number], string> = {
  user: 'User',
  admin: 'Administrator',
};

/**
 * The least length of a new or changed local password. Sign-in takes any length: passwords set
 * before the rule still sign in, and are held to it when next changed. Auth also refuses the
 * 10,000 most common passwords and those a strength estimate finds easy to guess, which need
 * dictionaries and so are not part of this schema.
 */
export const passwordMinLength = 12;
export const tooShort = `Password must be at least ${passwordMinLength} characters`;

/** What a person reads when a sign-in or an account change is refused. */
export const authMessages = {
  invalidCredentials: 'Invalid username or password',
  unauthenticated: 'Sign in to continue.',
  forbidden: 'Only administrators can do this.',
  selfDelete: 'You cannot delete your own account. Ask another administrator.',
  selfDeactivate: 'You cannot deactivate your own account. Ask another administrator.',
  lastAdmin: 'This is the last active administrator. Make another user an active administrator first.',
  userNotFound: 'No such user. It may have been deleted.',
  passwordChecksBusy: 'The server is busy checking passwords. Try again in a moment.',
  passwordTooShort: tooShort,
  commonPassword: 'This password is one of the 10,000 most common passwords. Choose a less common one.',
  weakPassword:
    'This password is too easy to guess. Use a few words that do not belong together, or make it longer.',
  passwordHasPersonalData: 'It contains your username, name or email address, which are easy to guess.',
  wrongCurrentPassword: 'The current password is wrong.',
  externalPassword:
    'This user signs in through single sign-on and has no password here: the identity provider keeps it.',
  externalRole:
    "This user's role follows their groups at the identity provider (OIDC_ADMIN_GROUPS), at each sign-in.",
  externalTotp:
    'This account signs in through single sign-on: two-factor sign-in is set up at the identity provider.',
} as const;
