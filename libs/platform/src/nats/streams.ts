import { type EventSubject, namespacedName, namespacedSubject, streams } from '@cm/contracts';
import { Logger } from '@nestjs/common';
import {
  connect,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type KV,
  type KvOptions,
  nanos,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
  type StreamInfo,
} from 'nats';

/** A stream as the contracts name it: relative name and subjects, namespaced here. */
export interface StreamDef {
  name: string;
  subjects: readonly string[];
  /** The stream's own limits, over the defaults (a live stream keeps minutes, not days). */
  maxAgeMs?: number;
  maxBytes?: number;
}

export interface StreamLimits {
  /** How long a message is kept, consumed or not: consumers that were down catch up within it. */
  maxAgeMs: number;
  /** Messages with a msgId already seen within this window are dropped (at least 2 minutes). */
  duplicateWindowMs: number;
  /** Size cap of the stream; the oldest messages go first when it is reached. */
  maxBytes: number;
}

const MIN_DUPLICATE_WINDOW_MS = 2 * 60_000;

export const defaultStreamLimits: StreamLimits = {
  maxAgeMs: 7 * 24 * 60 * 60_000,
  duplicateWindowMs: MIN_DUPLICATE_WINDOW_MS,
  maxBytes: 1024 * 1024 * 1024,
};

/** `STATUS` in namespace `cm` → stream `cm_STATUS` on subjects `cm.monitor.status.checked`. */
export function streamConfigFor(
  namespace: string,
  stream: StreamDef,
  limits: Partial<StreamLimits> = {},
  replicas = 1,
): Partial<StreamConfig> & { name: string } {
  const own: Partial<StreamLimits> = {};
  if (stream.maxAgeMs !== undefined) own.maxAgeMs = stream.maxAgeMs;
  if (stream.maxBytes !== undefined) own.maxBytes = stream.maxBytes;
  const l = { ...defaultStreamLimits, ...own, ...limits };
  if (l.duplicateWindowMs < MIN_DUPLICATE_WINDOW_MS || l.duplicateWindowMs > l.maxAgeMs) {
    throw new Error(
      `The duplicate window of ${stream.name} must be between 2 minutes and its max age (${l.maxAgeMs} ms)`,
    );
  }
  return {
    name: namespacedName(namespace, stream.name),
    subjects: stream.subjects.map((s) => namespacedSubject(namespace, s)),
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: nanos(l.maxAgeMs),
    duplicate_window: nanos(l.duplicateWindowMs),
    max_bytes: l.maxBytes,
    num_replicas: replicas,
  };
}

/** JetStream's answer for a stream or consumer that does not exist. */
export const isNotFound = (error: unknown) => /not found/i.test(String((error as Error)?.message ?? error));
const isAlreadyInUse = (error: unknown) => /already in use/i.test(String((error as Error)?.message ?? error));

/**
 * A clear start-up failure when the NATS servers cannot keep `replicas` copies: a single server
 * refuses any count above 1, a cluster one above its number of JetStream servers.
 */
export function replicaProblem(error: unknown, stream: string, replicas: number): Error {
  const said = String((error as Error)?.message ?? error);
  if (replicas <= 1 || !/non-clustered|insufficient resources|no suitable peers|replicas/i.test(said)) {
    return error instanceof Error ? error : new Error(said);
  }
  const hint = /non-clustered/i.test(said)
    ? 'the NATS server is a single server, not a cluster'
    : `the NATS cluster has fewer than ${replicas} servers with JetStream available`;
  return new Error(
    `NATS_STREAM_REPLICAS=${replicas}: the stream ${stream} cannot be kept on ${replicas} servers, as ` +
      `${hint}. Run JetStream on a cluster of at least ${replicas} servers, or lower NATS_STREAM_REPLICAS ` +
      `(1 for a single server). NATS said: ${said}`,
  );
}

const streamLogger = new Logger('JetStream');

/**
 * Brings an existing stream's replica count to the wanted one (NATS moves the copies itself).
 * Returns the info after the change, or the info given when nothing had to change.
 */
async function ensureReplicas(
  jsm: JetStreamManager,
  info: StreamInfo,
  replicas: number,
): Promise<StreamInfo> {
  const current = info.config.num_replicas || 1;
  const name = info.config.name;
  // A single server takes any count by update and keeps one copy all the same: refuse it here.
  if (replicas > 1 && !info.cluster?.name) {
    throw replicaProblem(new Error('the server reports no cluster (non-clustered mode)'), name, replicas);
  }
  if (current === replicas) return info;
  streamLogger.warn(
    `Stream ${name} has ${current} replica(s); changing it to ${replicas} (NATS_STREAM_REPLICAS)`,
  );
  try {
    return await jsm.streams.update(name, { ...info.config, num_replicas: replicas });
  } catch (error) {
    throw replicaProblem(error, name, replicas);
  }
}

/**
 * Creates the stream, or brings its subjects, limits and replica count to the wanted ones. Safe
 * to call from every replica of every service that uses the stream, at the same time.
 */
export async function ensureStream(
  jsm: JetStreamManager,
  namespace: string,
  stream: StreamDef,
  limits: Partial<StreamLimits> = {},
  replicas = 1,
): Promise<StreamInfo> {
  const wanted = streamConfigFor(namespace, stream, limits, replicas);
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(wanted.name);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    try {
      return await jsm.streams.add(wanted);
    } catch (addError) {
      // Another process created it between our look-up and our create.
      if (!isAlreadyInUse(addError)) throw replicaProblem(addError, wanted.name, replicas);
      info = await jsm.streams.info(wanted.name);
    }
  }
  info = await ensureReplicas(jsm, info, replicas);
  const c = info.config;
  const same =
    [...c.subjects].sort().join() === [...wanted.subjects!].sort().join() &&
    c.max_age === wanted.max_age &&
    c.duplicate_window === wanted.duplicate_window &&
    c.max_bytes === wanted.max_bytes &&
    c.discard === wanted.discard;
  return same ? info : jsm.streams.update(wanted.name, { ...c, ...wanted });
}

/**
 * Opens a KV bucket (a stream `KV_<bucket>`), creating it with `replicas` copies, and brings an
 * existing one to that count: the library alone would keep whatever count it was created with.
 */
export async function openKv(
  js: JetStreamClient,
  jsm: JetStreamManager,
  bucket: string,
  options: Partial<KvOptions>,
  replicas = 1,
): Promise<KV> {
  let kv: KV;
  try {
    kv = await js.views.kv(bucket, { ...options, replicas });
  } catch (error) {
    throw replicaProblem(error, `KV_${bucket}`, replicas);
  }
  await ensureReplicas(jsm, await jsm.streams.info(`KV_${bucket}`), replicas);
  return kv;
}

/**
 * A request JetStream did not answer in time, or answered "temporarily unavailable": a cluster
 * electing its leaders, or a server too busy to answer within the request timeout. Worth
 * asking again; a refusal (limits, replica count) is not.
 */
export function isTransientJetStreamError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'TIMEOUT' || code === '503' || /temporarily unavailable/i.test(String(error));
}

/**
 * `ensureStream` at a service's start: asked again with back-off while JetStream is only slow or
 * electing, up to `withinMs`, so that a busy cluster does not stop the pod; then its error.
 */
export async function ensureStreamAtStart(
  ensure: () => Promise<StreamInfo>,
  name: string,
  withinMs = 30_000,
): Promise<StreamInfo> {
  const giveUpAt = Date.now() + withinMs;
  for (let delayMs = 250; ; delayMs = Math.min(delayMs * 2, 4000)) {
    try {
      return await ensure();
    } catch (error) {
      if (!isTransientJetStreamError(error) || Date.now() + delayMs > giveUpAt) throw error;
      streamLogger.warn(
        `Creating or checking stream ${name} failed (${String(error)}); again in ${delayMs} ms`,
      );
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

/** The contracts' stream that captures an event subject. */
export function streamOf(subject: EventSubject): StreamDef {
  const found = Object.values(streams).find((s) => (s.subjects as readonly string[]).includes(subject));
  if (!found) throw new Error(`No stream captures ${subject}`);
  return found;
}

/** Deletes every stream of a namespace (tests and throw-away stacks clean up after themselves). */
export async function deleteNamespaceStreams(namespace: string, servers: string): Promise<void> {
  const nc = await connect({ servers: servers.split(','), name: 'cleanup', timeout: 5000 });
  try {
    const jsm = await nc.jetstreamManager({ timeout: 5000 });
    for (const stream of Object.values(streams)) {
      await jsm.streams.delete(namespacedName(namespace, stream.name)).catch((error: unknown) => {
        if (!isNotFound(error)) throw error;
      });
    }
  } finally {
    await nc.close();
  }
}
