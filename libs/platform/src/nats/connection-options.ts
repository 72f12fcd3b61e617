import { readFileSync } from 'node:fs';
import { type NatsAuthMode, natsInboxPrefix, type NatsPrincipal } from '@cm/contracts';
import {
  type Authenticator,
  connect,
  type ConnectionOptions,
  credsAuthenticator,
  type NatsConnection,
} from 'nats';
import { type CoreConfig } from '../config';

/** What every NATS connection of a process adds to its servers: its credentials and its inboxes. */
export interface NatsClientOptions {
  authenticator?: Authenticator;
  user?: string;
  pass?: string;
  token?: string;
  inboxPrefix?: string;
}

/**
 * How every connection of a process (server, client, JetStream) keeps to the NATS servers it was
 * given. A server that stops (killed, restarted) closes its sockets, and the client takes the next
 * one within milliseconds; these settings bound what is slower:
 * - `timeout`: a connection attempt to a server that does not answer (its host is gone) is given
 *   up after 2 s for the next server, rather than after nats.js's 20 s;
 * - `pingInterval` and `maxPingOut`: a connection whose server went silent without closing it (a
 *   host or network lost) is taken for dead once two pings 5 s apart went unanswered, within 15 s
 *   rather than nats.js's 4 to 6 minutes;
 * - a lost connection is retried forever, each server at most once a second.
 */
export const natsConnectionSettings = {
  maxReconnectAttempts: -1,
  reconnectTimeWait: 1000,
  timeout: 2000,
  pingInterval: 5000,
  maxPingOut: 2,
} as const;

/**
 * How long a process keeps trying for its first connection when every server is slow to answer:
 * on a machine at a load average of 20, the handshake can take longer than `timeout`, and a
 * service that gave up at once would fail to start for a moment's load. A refusal (nothing
 * listens) still fails at once: waiting would only hide a wrong NATS_URL.
 */
export const NATS_FIRST_CONNECT_MS = 30_000;

const slowAnswer = new Set(['TIMEOUT', 'CONNECTION_TIMEOUT']);

/** nats.js's `connect`, tried again while the servers answer too slowly, for up to `withinMs`. */
export async function connectPatiently(
  options: ConnectionOptions,
  withinMs = NATS_FIRST_CONNECT_MS,
  connectOnce: (options: ConnectionOptions) => Promise<NatsConnection> = connect,
): Promise<NatsConnection> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      return await connectOnce(options);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (!slowAnswer.has(String(code)) || performance.now() >= deadline) throw error;
    }
  }
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
