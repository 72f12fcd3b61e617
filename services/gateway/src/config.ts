import path from 'node:path';
import {
  bucketOf,
  coreEnv,
  databaseEnv,
  envInt,
  envPort,
  jetStreamEnv,
  listOf,
  objectStoreEnv,
  optionalText,
  secret,
} from '@cm/platform';
import { z } from 'zod';

/** Express's `trust proxy`: false, true, a hop count, or addresses and subnets ("loopback, 10.0.0.0/8"). */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((v): boolean | number | string => {
    if (v === 'true' || v === 'false') return v === 'true';
    return /^\d+$/.test(v) ? Number(v) : v;
  });

const origins = z
  .string()
  .optional()
  .transform((v, ctx) => {
    const parsed: string[] = [];
    for (const entry of listOf(v)) {
      const url = URL.canParse(entry) ? new URL(entry) : null;
      if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== entry.replace(/\/$/, '')) {
        ctx.addIssue({
          code: 'custom',
          message: `"${entry}" is not an origin like https://monitor.example.edu`,
        });
      } else parsed.push(url.origin);
    }
    return parsed;
  });

const gatewayEnv = z.object({
  ...coreEnv,
  ...databaseEnv,
  ...jetStreamEnv,
  PORT: envPort(8080),
  /** 0.0.0.0 in a container; loopback by default so a laptop does not expose the app. */
  HOST: z.string().default('127.0.0.1'),
  /** Prometheus metrics, apart from the public port. */
  METRICS_PORT: envPort(9100),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** The built web app; the gateway serves it at / with a fallback for deep links. */
  WEB_DIST_DIR: z.string().default(path.resolve(__dirname, '../../../web/dist')),
  /**
   * After SIGTERM, how long to go on serving while readiness answers 503, so that the Service and
   * the ingress controller stop sending before the server closes (0 on one host: nothing to wait for).
   */
  SHUTDOWN_DELAY_MS: envInt(0, 120_000, 0),
  /** How long the readiness probe waits for each service. */
  READINESS_TIMEOUT_MS: envInt(100, 30_000, 2000),
  /** Signs the session cookie; every replica needs the same one. */
  SESSION_SECRET: secret(
    z
      .string({ message: 'is required: a random string of at least 32 characters' })
      .min(32, { message: 'must be at least 32 characters' }),
  ),
  /** A session ends after this long without a request. */
  SESSION_MAX_AGE_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 90)
    .default(24),
  /** A session ends this long after sign-in, however busy it is. */
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number({ message: 'must be a number of hours' })
    .min(0.01, { message: 'must be at least 0.01 hours' })
    .max(24 * 366, { message: 'must be at most 8784 hours (a year)' })
    .default(168),
  TRUST_PROXY: trustProxy,
  /** The origins the app is served at; unset: the request's own Host (and X-Forwarded-* behind a trusted proxy). */
  PUBLIC_ORIGIN: origins,
  /**
   * Where browsers PUT presigned uploads when they reach the store themselves: allowed by the
   * Content-Security-Policy. Unset: they PUT to the gateway's /store, which forwards to S3_ENDPOINT.
   */
  S3_PUBLIC_ENDPOINT: z.url({ message: 'must be a URL' }).optional(),
  /** The store as the gateway reaches it (media's S3_ENDPOINT), for the uploads it forwards. */
  S3_ENDPOINT: objectStoreEnv.S3_ENDPOINT.optional(),
  /** Media's bucket: the only one uploads are forwarded to. */
  S3_BUCKET: objectStoreEnv.S3_BUCKET,
  /** How media addresses the bucket (media's S3_FORCE_PATH_STYLE): forwarded uploads alike. */
  S3_FORCE_PATH_STYLE: objectStoreEnv.S3_FORCE_PATH_STYLE,
  /**
   * Media's store credentials and region: the gateway checks the signature of every upload it
   * forwards with them, as the store would (a local store may check none).
   */
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: secret(optionalText()),
  S3_SECRET_ACCESS_KEY: secret(optionalText()),
  /**
   * Failed sign-ins of one username from one client (or one device cookie) before each further one
   * waits; also wrong two-factor codes of one account from every client without its device cookie.
   */
  LOGIN_MAX_FAILURES: envInt(1, 1000, 5),
  /**
   * Failed sign-ins from one client address, whatever the usernames, before each further one waits;
   * a sign-in auth was too busy to check counts as one.
   */
  LOGIN_MAX_FAILURES_PER_IP: envInt(1, 100_000, 30),
  /**
   * Sign-ins in flight at once from one client address (browsers with a device cookie are not
   * counted): a flood from one address takes no more of auth's password checks than this.
   */
  LOGIN_MAX_CONCURRENT_PER_IP: envInt(1, 10_000, 4),
  /** Failures are forgotten once a counter has been free to try for this long without failing. */
  LOGIN_THROTTLE_WINDOW_SECONDS: envInt(1, 86_400, 900),
  /** The wait after the limit starts at 1 s and doubles with each failure, up to this. */
  LOGIN_MAX_DELAY_SECONDS: envInt(1, 86_400, 300),
  /** Audit log entries older than this many days are deleted (checked hourly). */
  AUDIT_RETENTION_DAYS: envInt(1, 36_500, 400),
  /**
   * Administrators must use two-factor sign-in: one without it is signed in but reaches only the
   * Account screen's enrolment (every other route answers 403) until they have enrolled.
   */
  REQUIRE_ADMIN_TOTP: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** How long a browser that signed in keeps its device cookie (a year by default). */
  LOGIN_DEVICE_COOKIE_DAYS: envInt(1, 3650, 365),
  /** Streamed uploads (POST /api/upload) at once in this process; each holds a 5 MB part buffer. */
  UPLOAD_MAX_CONCURRENT: envInt(1, 1000, 20),
  /**
   * Uploads at once of one user (streamed, and forwarded on links they asked for), so that one
   * person cannot take every slot.
   */
  UPLOAD_MAX_CONCURRENT_PER_USER: envInt(1, 1000, 3),
  /** A streamed upload that sends nothing for this long is cancelled (408). */
  UPLOAD_IDLE_TIMEOUT_MS: envInt(100, 600_000, 30_000),
  /**
   * How often an open live stream (`GET /api/events`) gets a comment line, so that proxies do not
   * close it as idle, and its session is checked again.
   */
  EVENTS_KEEPALIVE_MS: envInt(100, 60_000, 15_000),
  /** Live streams one session may hold open at once (a tab each). */
  EVENTS_MAX_STREAMS_PER_SESSION: envInt(1, 100, 10),
  /** Live streams this process holds open at once; each is an open connection. */
  EVENTS_MAX_STREAMS: envInt(1, 100_000, 5000),
});

/**
 * Without PUBLIC_ORIGIN the own origin comes from the Host header, which a DNS-rebinding page
 * controls: acceptable on a laptop, not in production.
 */
export const configSchema = gatewayEnv
  .superRefine(
    (env, ctx) => {
      if (env.SHUTDOWN_DELAY_MS >= env.SHUTDOWN_TIMEOUT_MS) {
        ctx.addIssue({
          code: 'custom',
          path: ['SHUTDOWN_DELAY_MS'],
          message: `must be less than SHUTDOWN_TIMEOUT_MS (${env.SHUTDOWN_TIMEOUT_MS}): the work in flight needs time after it`,
        });
      }
      if (env.NODE_ENV === 'production' && (env.PUBLIC_ORIGIN ?? []).length === 0) {
        ctx.addIssue({
          code: 'custom',
          path: ['PUBLIC_ORIGIN'],
          message:
            'is required when NODE_ENV=production: the origin(s) the app is served at, e.g. https://monitor.campus.edu',
        });
      }
    },
    // Also when other variables are wrong, so that one start lists every problem.
    { when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'PUBLIC_ORIGIN') },
  )
  .superRefine(
    (env, ctx) => {
      if (env.NODE_ENV === 'production' && !env.S3_PUBLIC_ENDPOINT && !env.S3_ENDPOINT) {
        ctx.addIssue({
          code: 'custom',
          path: ['S3_ENDPOINT'],
          message:
            "is required when NODE_ENV=production and S3_PUBLIC_ENDPOINT is unset: browsers' uploads go through the gateway to the store at this URL (media's S3_ENDPOINT, e.g. http://minio:9000)",
        });
      }
    },
    { when: (payload) => !payload.issues.some((issue) => String(issue.path?.[0]).startsWith('S3_')) },
  )
  .superRefine(
    (env, ctx) => {
      if (env.S3_PUBLIC_ENDPOINT || !env.S3_ENDPOINT) return;
      for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
        if (env[name]) continue;
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `is required when S3_ENDPOINT is set and S3_PUBLIC_ENDPOINT is not: the gateway checks the signature of the uploads it forwards with media's store credentials (the same ${name})`,
        });
      }
    },
    { when: (payload) => !payload.issues.some((issue) => String(issue.path?.[0]).startsWith('S3_')) },
  )
  .transform((env) => ({ ...env, S3_BUCKET: bucketOf(env) }));
export type Config = z.infer<typeof configSchema>;
