import { availableParallelism } from 'node:os';
import { newUsernameSchema } from '@cm/contracts';
import {
  coreEnv,
  databaseEnv,
  encryptionKey,
  envInt,
  httpPortEnv,
  jetStreamEnv,
  listOf,
  optionalText,
  secret,
} from '@cm/platform';
import { z } from 'zod';
import { passwordProblem } from './passwords/password-policy';

const secretName = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** http only on this machine (a test provider, a laptop's Keycloak): elsewhere tokens would cross in clear. */
const loopbackHost = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

const issuerUrl = optionalText().refine(
  (value) => {
    if (value === undefined) return true;
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && loopbackHost.test(url.hostname));
  },
  {
    message:
      'must be the https URL of the OpenID provider (its issuer), e.g. https://login.example.edu/realms/campus',
  },
);

const variables = z.object({
  ...coreEnv,
  ...databaseEnv,
  ...jetStreamEnv,
  ...httpPortEnv(9101),
  /** The first administrator, created when the users table is empty. */
  ADMIN_USERNAME: newUsernameSchema.default('admin'),
  /** Unset: a random password is generated and kept where one of the next two says. */
  ADMIN_PASSWORD: secret(
    z
      .string()
      .superRefine((password, ctx) => {
        const problem = passwordProblem(password);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  ),
  /** A file created for the generated password, readable by its owner only; one that exists is never replaced. */
  ADMIN_PASSWORD_OUTPUT_FILE: optionalText(),
  /** A Kubernetes Secret (in the pod's namespace) created for the generated password. */
  ADMIN_PASSWORD_SECRET: optionalText().refine((name) => name === undefined || secretName.test(name), {
    message: 'must be a Kubernetes object name (lowercase letters, digits, - and ., at most 253)',
  }),
  /**
   * argon2id cost of new password hashes; the defaults are the argon2 library's. A hash records
   * its own cost, so changing these never locks anyone out.
   */
  PASSWORD_HASH_MEMORY_KIB: envInt(1024, 4_194_304, 65_536),
  PASSWORD_HASH_PASSES: envInt(1, 20, 3),
  PASSWORD_HASH_PARALLELISM: envInt(1, 16, 4),
  /**
   * Hashes computed at once by one process: more only queue for the same cores while the caller's
   * deadline runs out. Beyond these and the queue a sign-in is answered 503 with Retry-After at once.
   */
  AUTH_MAX_CONCURRENT_HASHES: envInt(1, 64, availableParallelism()),
  AUTH_HASH_QUEUE_LENGTH: envInt(0, 1000, 8),
  /** The key two-factor secrets are kept under (AES-256-GCM). Unset: nobody can enrol. */
  AUTH_TOTP_KEY: encryptionKey(),
  /**
   * OpenID Connect sign-in (single sign-on): the provider's issuer URL, as its
   * /.well-known/openid-configuration names it. Unset: only the username and password form.
   */
  OIDC_ISSUER_URL: issuerUrl,
  OIDC_CLIENT_ID: optionalText(),
  /** Unset: a public client, which proves itself with PKCE alone. */
  OIDC_CLIENT_SECRET: secret(optionalText()),
  /** The provider as the sign-in button names it: "Sign in with {name}". */
  OIDC_DISPLAY_NAME: z.string().trim().min(1).max(60).default('SSO'),
  /** Values of the groups claim that make an administrator; anyone else signs in as a user. */
  OIDC_ADMIN_GROUPS: optionalText().transform(listOf),
  /** The claim whose value is the username (of the ID token, or else of the UserInfo answer). */
  OIDC_USERNAME_CLAIM: z.string().trim().min(1).default('preferred_username'),
  OIDC_GROUPS_CLAIM: z.string().trim().min(1).default('groups'),
  /** Space-separated; some providers send groups only for a scope of their own (Okta: groups). */
  OIDC_SCOPES: z
    .string()
    .trim()
    .default('openid profile email')
    .refine((v) => v.split(/\s+/).includes('openid'), { message: 'must include openid' }),
  /** How long a request to the provider (discovery, keys, token, UserInfo) may take. */
  OIDC_TIMEOUT_MS: envInt(500, 60_000, 10_000),
});

export const configSchema = variables
  .refine((c) => !(c.ADMIN_PASSWORD_OUTPUT_FILE && c.ADMIN_PASSWORD_SECRET), {
    path: ['ADMIN_PASSWORD_SECRET'],
    message: 'set only one of ADMIN_PASSWORD_OUTPUT_FILE and ADMIN_PASSWORD_SECRET',
  })
  .refine((c) => Boolean(c.OIDC_ISSUER_URL) === Boolean(c.OIDC_CLIENT_ID), {
    path: ['OIDC_CLIENT_ID'],
    message: 'set OIDC_ISSUER_URL and OIDC_CLIENT_ID together (single sign-on needs both)',
  });
export type Config = z.infer<typeof configSchema>;
