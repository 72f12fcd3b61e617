import { secretVariables } from '@cm/platform';
import type { z } from 'zod';
import { configSchema as auth } from '../../../services/auth/src/config';
import { configSchema as gateway } from '../../../services/gateway/src/config';
import { configSchema as inventory } from '../../../services/inventory/src/config';
import { configSchema as media } from '../../../services/media/src/config';
import { configSchema as monitor } from '../../../services/monitor/src/config';
import type { ServiceName } from './paths';

/** Each service's zod environment schema, read from its source so new variables count at once. */
export const configSchemas: Record<ServiceName, z.ZodType> = { gateway, auth, inventory, media, monitor };

/** The variable names a schema reads: the keys of its object, through any `.transform()` pipe. */
export function variablesRead(schema: z.ZodType): string[] {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; in?: z.ZodType };
  if (def.type === 'object') return Object.keys(def.shape!).sort();
  if (def.type === 'pipe') return variablesRead(def.in!);
  throw new Error(`cannot list the variables of a ${def.type} schema`);
}

/*
 * Who sets each variable a service reads. Every variable is set by the deployment (the chart, or
 * docker-compose.yml) unless it is named here, so a new variable without a safe default fails the
 * checks until the chart and docker-compose.yml set it.
 */

/** Facts about the image rather than the site: set by ENV in the Dockerfile (checked there). */
export const setByImage: Record<ServiceName, string[]> = {
  gateway: ['NODE_ENV', 'WEB_DIST_DIR'],
  auth: ['NODE_ENV'],
  inventory: ['NODE_ENV'],
  media: ['NODE_ENV'],
  monitor: ['NODE_ENV'],
};

/**
 * Optional with no value a site could share: set only when the operator gives one (checked with
 * ci/inline-credentials-values.yaml, which gives them all).
 */
export const setWhenConfigured = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'ADMIN_PASSWORD',
  'S3_PUBLIC_ENDPOINT',
  'S3_BUCKET',
  'MONITOR_SESSION_ID',
  // Nobody can enrol in two-factor sign-in until the key is given.
  'AUTH_TOTP_KEY',
  // No single sign-on until the identity provider is named; the rest has auth's defaults.
  'OIDC_ISSUER_URL',
  'OIDC_CLIENT_ID',
  'OIDC_CLIENT_SECRET',
  'OIDC_DISPLAY_NAME',
  'OIDC_ADMIN_GROUPS',
  'OIDC_USERNAME_CLAIM',
  'OIDC_GROUPS_CLAIM',
  'OIDC_SCOPES',
  'OIDC_TIMEOUT_MS',
  // Each kind of notification channel is refused until its server-side setting is given.
  'ALERTS_SECRET_KEY',
  'ALERTS_WEBHOOK_ALLOWED_HOSTS',
  'ALERTS_ALLOWED_TARGETS',
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_SECURE',
  'SMTP_USER',
  'SMTP_PASSWORD',
  'SMTP_FROM',
];

/**
 * The other ways of logging in to NATS than the user and password the chart and docker-compose.yml
 * give each service: one at a time, for a site that runs NATS with tokens or creds files.
 */
export const otherNatsLogins = ['NATS_TOKEN', 'NATS_CREDS_FILE'];

/**
 * Where auth keeps the first administrator's generated password: one or the other by where it runs
 * (the chart names a Secret, docker-compose.yml a file; first-admin.spec.ts checks both).
 */
export const generatedPasswordDestinations = ['ADMIN_PASSWORD_SECRET', 'ADMIN_PASSWORD_OUTPUT_FILE'];

/**
 * Read besides the schema's own variables: `<NAME>_FILE` of each secret (the file holding it) and
 * NODE_EXTRA_CA_CERTS (caBundle), set only when the operator asks, and NODE_OPTIONS, which Node
 * itself reads (the monitor's heap bound).
 */
export const alsoRead = (service: ServiceName) => [
  ...secretVariables(configSchemas[service]).map((name) => `${name}_FILE`),
  'NODE_EXTRA_CA_CERTS',
  'NODE_OPTIONS',
];

/** Tuning the chart exposes as values, while one Docker host keeps the services' defaults. */
export const composeKeepsDefault = [
  'NATS_REQUEST_TIMEOUT_MS',
  // One NATS server in docker-compose.yml: one copy of each stream.
  'NATS_STREAM_REPLICAS',
  'SHUTDOWN_TIMEOUT_MS',
  // Nothing on one host takes a stopping gateway out of a balancer's rotation.
  'SHUTDOWN_DELAY_MS',
  'DATABASE_POOL_MAX',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  // One Docker host: each service migrates its own schema at start (`run`).
  'DATABASE_MIGRATIONS',
  'DATABASE_MIGRATIONS_WAIT_MS',
  'READINESS_TIMEOUT_MS',
  'S3_REQUEST_TIMEOUT_MS',
  'MEDIA_UPLOAD_RETENTION_MS',
  'MEDIA_CLEANUP_INTERVAL_MS',
  'LOGIN_MAX_FAILURES',
  'LOGIN_MAX_FAILURES_PER_IP',
  'LOGIN_MAX_CONCURRENT_PER_IP',
  'LOGIN_THROTTLE_WINDOW_SECONDS',
  'LOGIN_MAX_DELAY_SECONDS',
  'LOGIN_DEVICE_COOKIE_DAYS',
  'UPLOAD_MAX_CONCURRENT',
  'UPLOAD_MAX_CONCURRENT_PER_USER',
  'UPLOAD_IDLE_TIMEOUT_MS',
  'EVENTS_KEEPALIVE_MS',
  'EVENTS_MAX_STREAMS_PER_SESSION',
  'EVENTS_MAX_STREAMS',
  'AUDIT_RETENTION_DAYS',
  'PASSWORD_HASH_MEMORY_KIB',
  'PASSWORD_HASH_PASSES',
  'PASSWORD_HASH_PARALLELISM',
  'AUTH_MAX_CONCURRENT_HASHES',
  'AUTH_HASH_QUEUE_LENGTH',
  'INVENTORY_STATUS_ACK_WAIT_MS',
  'INVENTORY_STATUS_MAX_DELIVER',
  'INVENTORY_OUTBOX_INTERVAL_MS',
  'INVENTORY_HISTORY_RETENTION_HOURS',
  'INVENTORY_STATUS_HOURS_RETENTION_DAYS',
  'INVENTORY_HISTORY_PRUNE_INTERVAL_MS',
  'INVENTORY_MAX_ADDRESSES_PER_RANGE',
  'INVENTORY_MAX_MONITORED_ADDRESSES',
  'ALERTS_SEND_TIMEOUT_MS',
  'ALERTS_RELAY_INTERVAL_MS',
  'ALERTS_RETRY_BASE_MS',
  'ALERTS_RETRY_MAX_MS',
  'ALERTS_MAX_ATTEMPTS',
  'ALERT_AFTER_FAILED_CHECKS',
  'ALERT_GROUP_WINDOW_MS',
  'ALERT_FLAP_THRESHOLD',
  'SCHEDULE_FEED_INTERVAL_MS',
  'SCHEDULE_FETCH_TIMEOUT_MS',
  'SCHEDULE_FEED_MAX_BACKOFF_MS',
  'SCHEDULE_POLL_TICK_MS',
  'INVENTORY_REPORT_CHUNK_BYTES',
  'INVENTORY_REPORT_IDLE_MS',
  'INVENTORY_REPORT_STREAMS_MAX',
  'READINESS_LEAD_MINUTES',
  'READINESS_TICK_MS',
  'MONITOR_INTERVAL_MS',
  'MONITOR_PING_TIMEOUT_MS',
  'MONITOR_PING_RETRIES',
  'MONITOR_PACKET_GAP_MS',
  'MONITOR_MAX_OUTSTANDING',
  'MONITOR_MEMBER_TTL_MS',
  'MONITOR_CHECK_WAIT_MS',
  'MONITOR_SWEEP_TIMEOUT_MS',
  'MONITOR_TARGETS_RESYNC_MS',
  'MONITOR_PROBE_CONCURRENCY',
  'MONITOR_PROBE_TIMEOUT_MS',
  'MONITOR_PROBE_TARGETS_RESYNC_MS',
];
