import { encryptionKey, optionalText, secret } from '@cm/platform';
import { z } from 'zod';
import { type AllowedTargets, parseAllowedTargets } from './webhook-address';

const int = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** Host names a webhook may go to: `hooks.slack.com`, `*.example.edu` (any of its subdomains), `10.0.0.5`. */
const hostList = optionalText().transform((value, ctx) => {
  if (value === undefined) return undefined;
  const hosts = value
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = hosts.filter((h) => !/^(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?$|^\[[0-9a-f:.]+\]$/.test(h));
  if (hosts.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be host names separated by commas, such as hooks.slack.com,*.example.edu${bad.length ? ` (not: ${bad.join(', ')})` : ''}`,
    });
    return z.NEVER;
  }
  return hosts;
});

/** Addresses, networks and host names webhooks may reach though they are loopback, private-use, … */
const allowedTargets = optionalText().transform((value, ctx) => {
  if (value === undefined) return undefined;
  const parsed = parseAllowedTargets(value);
  if ('error' in parsed) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed;
});

/**
 * The default of ALERTS_ALLOWED_TARGETS where it is unset: under `npm start` (development) a
 * receiver on this machine, as MONITOR_ALLOWED_NETWORKS takes loopback there; in tests and
 * production nothing, so a test lists the receiver it uses.
 */
export const developmentAlertTargets = '127.0.0.0/8,::1,localhost';

/** A configuration with ALERTS_ALLOWED_TARGETS filled in (a `.transform` of the process's schema). */
export function withDefaultAlertTargets<
  C extends { NODE_ENV: string; ALERTS_ALLOWED_TARGETS?: AllowedTargets },
>(config: C): C {
  if (config.ALERTS_ALLOWED_TARGETS || config.NODE_ENV !== 'development') return config;
  return {
    ...config,
    ALERTS_ALLOWED_TARGETS: parseAllowedTargets(developmentAlertTargets) as AllowedTargets,
  };
}

/**
 * The web app's address as people open it (the gateway's PUBLIC_ORIGIN; of a comma-separated
 * list, the first), for the link to the room in alert messages.
 */
const appUrl = optionalText().transform((value, ctx) => {
  if (value === undefined) return undefined;
  const first = value.split(',')[0].trim();
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an http(s) address, such as https://monitor.campus.edu',
    });
    return z.NEVER;
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
});

/** The 32-byte key webhook secrets are encrypted with, as base64 (`openssl rand -base64 32`). */
const secretKey = encryptionKey();

/** Notification channels and their delivery relay. */
export const alertsEnv = {
  /** Unset: webhook channels cannot be added (their secret could not be kept). */
  ALERTS_SECRET_KEY: secretKey,
  /** Set: each alert message ends with a link to its room (`<url>/rooms/<id>`); unset: no link. */
  ALERTS_APP_URL: appUrl,
  /** Unset: any http(s) host; set: webhooks go only to these hosts (checked on save and on each send). */
  ALERTS_WEBHOOK_ALLOWED_HOSTS: hostList,
  /**
   * Unset: webhooks never reach a loopback, link-local, private-use or other special address
   * (`webhook-address.ts`); these entries are let through. Checked on save and on each connect.
   */
  ALERTS_ALLOWED_TARGETS: allowedTargets,
  /** The longest one webhook POST or one SMTP exchange may take (connect, greeting, each reply). */
  ALERTS_SEND_TIMEOUT_MS: int(5000, 100, 60_000),
  /** How often each replica looks for deliveries due (new ones are sent at once when inserted here). */
  ALERTS_RELAY_INTERVAL_MS: int(2000, 100, 600_000),
  /** Wait before the second attempt; it doubles with each failure, up to ALERTS_RETRY_MAX_MS. */
  ALERTS_RETRY_BASE_MS: int(10_000, 10, 3_600_000),
  ALERTS_RETRY_MAX_MS: int(600_000, 10, 24 * 3_600_000),
  /** Attempts before a delivery is given up as failed: 12 with the defaults is about an hour. */
  ALERTS_MAX_ATTEMPTS: int(12, 1, 100),
  /** Consecutive failed checks (inactive or partial) before equipment joins its room's alert. */
  ALERT_AFTER_FAILED_CHECKS: int(2, 1, 100),
  /**
   * A room's first message waits this long for more of its devices to fail, and so does an
   * update: failures within it make one message, not one each.
   */
  ALERT_GROUP_WINDOW_MS: int(60_000, 0, 3_600_000),
  /** Alert changes (opened or closed) of one equipment in an hour above which it is reported as flapping. */
  ALERT_FLAP_THRESHOLD: int(4, 1, 100),
  /** Unset: e-mail channels cannot be added. */
  SMTP_HOST: optionalText(),
  SMTP_PORT: int(587, 1, 65535),
  /** `starttls` (required, the default), `tls` (implicit, usually port 465), or `none` (a relay on the same host). */
  SMTP_SECURE: z
    .enum(['starttls', 'tls', 'none'], { message: 'must be starttls, tls or none' })
    .default('starttls'),
  SMTP_USER: optionalText(),
  SMTP_PASSWORD: secret(optionalText()),
  /** The sender, such as `Classroom Monitor <av-alerts@example.edu>`; required with SMTP_HOST. */
  SMTP_FROM: optionalText(),
};

type AlertsEnv = z.infer<z.ZodObject<typeof alertsEnv>>;

/** The variables that only make sense together. */
export function checkAlertsEnv(env: AlertsEnv, ctx: z.RefinementCtx): void {
  if (env.SMTP_HOST && !env.SMTP_FROM) {
    ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required with SMTP_HOST' });
  }
  if (Boolean(env.SMTP_USER) !== Boolean(env.SMTP_PASSWORD)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.SMTP_USER ? 'SMTP_PASSWORD' : 'SMTP_USER'],
      message: env.SMTP_USER ? 'is required with SMTP_USER' : 'is required with SMTP_PASSWORD',
    });
  }
  if (env.ALERTS_RETRY_MAX_MS < env.ALERTS_RETRY_BASE_MS) {
    ctx.addIssue({
      code: 'custom',
      path: ['ALERTS_RETRY_MAX_MS'],
      message: 'must be at least ALERTS_RETRY_BASE_MS',
    });
  }
}
