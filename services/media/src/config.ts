import {
  bucketOf,
  coreEnv,
  databaseEnv,
  envInt,
  httpPortEnv,
  listOf,
  objectStoreEnv,
  secret,
} from '@cm/platform';
import { z } from 'zod';

export const configSchema = z
  .object({
    ...coreEnv,
    ...databaseEnv,
    ...httpPortEnv(9103),
    ...objectStoreEnv,
    /**
     * Where browsers reach the store (presigned upload URLs); unset: URLs are signed for
     * S3_ENDPOINT, and the gateway forwards browsers' uploads there (its /store route).
     */
    S3_PUBLIC_ENDPOINT: z.url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: secret(z.string().min(1, { message: 'is required' })),
    S3_SECRET_ACCESS_KEY: secret(z.string().min(1, { message: 'is required' })),
    S3_REQUEST_TIMEOUT_MS: envInt(100, 300_000, 10_000),
    /** Origins allowed to PUT to presigned URLs (the bucket's CORS rule), comma-separated. */
    S3_CORS_ORIGINS: z.string().default('*').transform(listOf),
    /** How long an upload may stay unregistered before the cleanup removes it. */
    MEDIA_UPLOAD_RETENTION_MS: z.coerce
      .number()
      .int()
      .min(1)
      .default(24 * 60 * 60 * 1000),
    /** How often one replica looks for such uploads. */
    MEDIA_CLEANUP_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .default(60 * 60 * 1000),
  })
  .transform((c) => ({ ...c, S3_BUCKET: bucketOf(c) }));
export type Config = z.infer<typeof configSchema>;
