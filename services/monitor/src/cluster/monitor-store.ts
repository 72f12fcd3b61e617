import { kvBuckets } from '@cm/contracts';
import { JetStreamConnection } from '@cm/platform';
import { JSONCodec, type KV, type KvEntry } from 'nats';

const json = JSONCodec<unknown>();

/**
 * The monitor's state in NATS KV, shared by every replica and kept across restarts:
 * `state` (running flag and interval), `leader` (the scheduler's lease), `lastSweep`; and a
 * second bucket whose entries expire unless refreshed: live replicas and their ping session ids.
 */
export class MonitorStore {
  private constructor(
    readonly state: KV,
    readonly members: KV,
  ) {}

  static async open(jetstream: JetStreamConnection, memberTtlMs: number): Promise<MonitorStore> {
    const state = await jetstream.kv(kvBuckets.monitor, { history: 1 });
    const members = await jetstream.kv(kvBuckets.monitorMembers, { history: 1, ttl: memberTtlMs });
    return new MonitorStore(state, members);
  }
}

export function encode(value: unknown): Uint8Array {
  return json.encode(value);
}

/** The entry's JSON value, or null for a missing, deleted or unreadable entry. */
export function decode<T>(entry: KvEntry | null): T | null {
  if (!entry || entry.operation !== 'PUT' || entry.length === 0) return null;
  try {
    return json.decode(entry.value) as T;
  } catch {
    return null;
  }
}

/** KV's "wrong last sequence" answer to a revision-checked write: someone else wrote first. */
export function isRevisionConflict(error: unknown): boolean {
  return /wrong last sequence|key exists/i.test(String((error as Error)?.message ?? error));
}
