import path from 'node:path';
import { coreEnv, databaseEnv } from '@cm/platform';
import { z } from 'zod';

export const configSchema = z.object({
  ...coreEnv,
  ...databaseEnv,
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** 0.0.0.0 in a container; loopback by default so a laptop does not expose the app. */
  HOST: z.string().default('127.0.0.1'),
  /** The built web app; the gateway serves it at / with a fallback for deep links. */
  WEB_DIST_DIR: z.string().default(path.resolve(__dirname, '../../../web/dist')),
  /** How long the readiness probe waits for each service. */
  READINESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2000),
});
export type Config = z.infer<typeof configSchema>;
