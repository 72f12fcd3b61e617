import { availableParallelism } from 'node:os';
import { usernameSchema } from '@cm/contracts';
import { coreEnv, databaseEnv, encryptionKey, httpPortEnv, optionalText, secret } from '@cm/platform';
import { z } from 'zod';
import { passwordProblem } from './passwords/password-policy';

const secretName = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const variables = z.object({
  ...coreEnv,
  ...databaseEnv,
  ...httpPortEnv(9101),
  /** The first administrator, created when the users table is empty. */
  ADMIN_USERNAME: usernameSchema.default('admin'),
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
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).max(4_194_304).default(65_536),
  PASSWORD_HASH_PASSES: z.coerce.number().int().min(1).max(20).default(3),
  PASSWORD_HASH_PARALLELISM: z.coerce.number().int().min(1).max(16).default(4),
  /**
   * Hashes computed at once by one process: more only queue for the same cores while the caller's
   * deadline runs out. Beyond these and the queue a sign-in is answered 503 with Retry-After at once.
   */
  AUTH_MAX_CONCURRENT_HASHES: z.coerce.number().int().min(1).max(64).default(availableParallelism()),
  AUTH_HASH_QUEUE_LENGTH: z.coerce.number().int().min(0).max(1000).default(8),
  /** The key two-factor secrets are kept under (AES-256-GCM). Unset: nobody can enrol. */
  AUTH_TOTP_KEY: encryptionKey(),
});

export const configSchema = variables.refine(
  (c) => !(c.ADMIN_PASSWORD_OUTPUT_FILE && c.ADMIN_PASSWORD_SECRET),
  {
    path: ['ADMIN_PASSWORD_SECRET'],
    message: 'set only one of ADMIN_PASSWORD_OUTPUT_FILE and ADMIN_PASSWORD_SECRET',
  },
);
export type Config = z.infer<typeof configSchema>;
