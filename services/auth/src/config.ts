import { coreEnv, databaseEnv, httpPortEnv } from '@cm/platform';
import { z } from 'zod';

export const configSchema = z.object({
  ...coreEnv,
  ...databaseEnv,
  ...httpPortEnv(9101),
  /** The first administrator, created when the users table is empty. */
  ADMIN_USERNAME: z.string().trim().min(1).max(64).default('admin'),
  /** Unset: a random password is generated and logged once. */
  ADMIN_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
});
export type Config = z.infer<typeof configSchema>;
