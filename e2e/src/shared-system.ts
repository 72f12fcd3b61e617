import { randomBytes } from 'node:crypto';
import files from './shared-system-files.json';
import { type Credentials } from './stack';

/**
 * One system for the files that only add records of their own and never stop, restart or
 * reconfigure a process: started once for the run by ./global-setup, stopped by
 * ./global-teardown. Such a file must not count on an empty database.
 */
export interface SharedSystem {
  url: string;
  namespace: string;
  admin: Credentials;
  /** Process id of each service, to read its memory. */
  pids: Record<string, number>;
}

/**
 * The files that use it, by name without `.e2e-spec.ts`: in a file of its own because
 * ../jest.config.js reads it too, to run them in one lane, one after another.
 */
export const sharedSystemFiles: readonly string[] = files;

/**
 * What the shared system's services run with, beyond the tests' environment: monitoring never
 * runs unless a test starts it, and then it may ping only this machine; users may enrol in
 * two-factor sign-in (a key made for the run). The browser tests on it check what a person sees,
 * not how fast a service answers: the gateway waits 15 s for one, not 5, so that a machine loaded
 * by the other lanes does not turn a slow answer into a 504 (nats-failover and resilience, which
 * test the deadline, start systems of their own). Likewise a device probe gets 60 s, not 8: a
 * test that holds a projector's reply while it looks at the screen lets it go when it has
 * looked, and on a loaded machine that took longer than 8 s (the probe's deadline has tests of
 * its own in the monitor).
 */
export const sharedSystemEnv = {
  MONITOR_ALLOWED_NETWORKS: '127.0.0.0/8',
  AUTH_TOTP_KEY: randomBytes(32).toString('base64'),
  NATS_REQUEST_TIMEOUT_MS: '15000',
  MONITOR_PROBE_TIMEOUT_MS: '60000',
};

const variable = 'CM_E2E_SHARED_SYSTEM';

/** Hands the system to the test files: jest starts its workers with this environment. */
export function publishSharedSystem(system: SharedSystem): void {
  process.env[variable] = JSON.stringify(system);
}

export function sharedSystem(): SharedSystem {
  const published = process.env[variable];
  if (!published)
    throw new Error(
      `No shared system: this file is one of sharedSystemFiles, which e2e/jest.config.js's globalSetup starts it for`,
    );
  return JSON.parse(published) as SharedSystem;
}
