import { coreEnv, databaseEnv, httpPortEnv } from '@cm/platform';
import { z } from 'zod';

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('true')
  .transform((v) => v === 'true' || v === '1');

export const configSchema = z
  .object({
    ...coreEnv,
    ...databaseEnv,
    ...httpPortEnv(9103),
    /** Where this service reaches the S3 API. */
    S3_ENDPOINT: z.url({ message: 'must be the URL of an S3-compatible API' }),
    /** Where browsers reach it (presigned upload URLs); defaults to S3_ENDPOINT. */
    S3_PUBLIC_ENDPOINT: z.url().optional(),
    /** Defaults to `<CM_NAMESPACE>-media`. */
    S3_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a valid S3 bucket name' })
      .optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1, { message: 'is required' }),
    S3_SECRET_ACCESS_KEY: z.string().min(1, { message: 'is required' }),
    S3_FORCE_PATH_STYLE: flag,
    S3_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
    /** Origins allowed to PUT to presigned URLs (the bucket's CORS rule), comma-separated. */
    S3_CORS_ORIGINS: z
      .string()
      .default('*')
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      ),
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
  .transform((c) => ({ ...c, S3_BUCKET: c.S3_BUCKET ?? `${c.CM_NAMESPACE.replace(/_/g, '-')}-media` }));
export type Config = z.infer<typeof configSchema>;
