import { readFileSync } from 'node:fs';
import { type NatsAuthMode, natsInboxPrefix, type NatsPrincipal } from '@cm/contracts';
import { credsAuthenticator, type Authenticator } from 'nats';
import { type CoreConfig } from '../config';

/** What every NATS connection of a process adds to its servers: its credentials and its inboxes. */
export interface NatsClientOptions {
  authenticator?: Authenticator;
  user?: string;
  pass?: string;
  token?: string;
  inboxPrefix?: string;
}

type NatsAuthConfig = Pick<
  CoreConfig,
  'CM_NAMESPACE' | 'NATS_USER' | 'NATS_PASSWORD' | 'NATS_TOKEN' | 'NATS_CREDS_FILE'
>;

export function natsAuthMode(config: NatsAuthConfig): NatsAuthMode {
  if (config.NATS_CREDS_FILE) return 'creds';
  if (config.NATS_USER) return 'user';
  if (config.NATS_TOKEN) return 'token';
  return 'none';
}

/**
 * The options of every connection the principal opens (server, client, JetStream), so that they
 * all log in alike and read replies only on the principal's own inboxes.
 */
export function natsClientOptions(config: NatsAuthConfig, principal: NatsPrincipal): NatsClientOptions {
  const inboxPrefix = natsInboxPrefix(config.CM_NAMESPACE, principal);
  switch (natsAuthMode(config)) {
    case 'creds': {
      const file = config.NATS_CREDS_FILE!;
      // Read at each (re)connect, so a rotated file is picked up without a restart.
      return { inboxPrefix, authenticator: credsAuthenticator(() => new Uint8Array(readFileSync(file))) };
    }
    case 'user':
      return { inboxPrefix, user: config.NATS_USER, pass: config.NATS_PASSWORD };
    case 'token':
      return { inboxPrefix, token: config.NATS_TOKEN };
    default:
      return { inboxPrefix };
  }
}
