import { type roomAttachmentFields } from '@cm/contracts';
import { type KeyValueStore } from './idb';
import { type OutboxRoute, recordOf } from './entry-record';

export { actionOf, type EntryAction, type OutboxRoute, recordOf } from './entry-record';

/** A room's picture fields, as the contracts list them. */
export type RoomPictureField = (typeof roomAttachmentFields)[number];

/** A file kept with its upload until it is sent; IndexedDB keeps a Blob as it is. */
export interface KeptFile {
  blob: Blob;
  name: string;
  type: string;
}

export interface OutboxEntry {
  /** Its Idempotency-Key, and its id here: a save sent twice is made once. */
  key: string;
  /** Order of queueing: entries go out in it. */
  seq: number;
  route: OutboxRoute;
  params: Record<string, string>;
  body: Record<string, unknown>;
  /** The version the edit or delete was made on (If-Match); none for a create. */
  ifVersion?: number;
  /** An upload's file. */
  file?: KeptFile;
  /** What a person reads in the list of waiting changes: "Edit building Science Hall". */
  label: string;
  /** The form it came from and where that form is (its draft's key, the screen's path); none for a delete or an upload. */
  form?: { draftKey: string; path: string };
  queuedAt: number;
  state: 'waiting' | 'conflict' | 'refused';
  /** Why the server refused it, or why it conflicts, in the server's words. */
  reason?: string;
  /** The record as the server had it when it refused the edit as stale. */
  current?: Record<string, unknown>;
}

/** How one send went. */
export type SendOutcome =
  | { kind: 'sent'; version?: number }
  | { kind: 'conflict'; reason: string; current: Record<string, unknown> }
  | { kind: 'refused'; reason: string }
  /** No answer, or the server cannot take it just now: try again later, in the same order. */
  | { kind: 'unreachable' }
  /** The session ended: nothing more is sent until the person signs in again. */
  | { kind: 'signed-out' };

export type Sender = (entry: OutboxEntry) => Promise<SendOutcome>;

export interface FlushResult {
  sent: OutboxEntry[];
  conflicts: OutboxEntry[];
  refused: OutboxEntry[];
  /** Stopped early: the network or the session. */
  stopped?: 'unreachable' | 'signed-out';
}

/**
 * Sends the waiting entries one by one in the order they were queued. A sent one leaves the store;
 * one the server refuses, or finds stale, stays, marked, for the person to decide, and holds back
 * the later edits of the same record (they were made on top of it). An edit sent makes the
 * record's next version: the later edits of that record queued on the same version (made after
 * it on this device) go out on the new one. No answer, or an ended session, stops the round:
 * the rest go in a later one, still in order.
 */
export async function flushOutbox(store: KeyValueStore<OutboxEntry>, send: Sender): Promise<FlushResult> {
  const result: FlushResult = { sent: [], conflicts: [], refused: [] };
  const entries = (await store.all()).sort((a, b) => a.seq - b.seq);
  const held = new Set(entries.filter((e) => e.state !== 'waiting').map(recordOf));
  for (const entry of entries) {
    if (entry.state !== 'waiting' || held.has(recordOf(entry))) continue;
    const outcome = await send(entry);
    if (outcome.kind === 'unreachable' || outcome.kind === 'signed-out') {
      result.stopped = outcome.kind;
      break;
    }
    if (outcome.kind === 'sent') {
      await store.remove(entry.key);
      result.sent.push(entry);
      if (outcome.version !== undefined) await carryVersion(store, entries, entry, outcome.version);
      continue;
    }
    held.add(recordOf(entry));
    const marked: OutboxEntry =
      outcome.kind === 'conflict'
        ? { ...entry, state: 'conflict', reason: outcome.reason, current: outcome.current }
        : { ...entry, state: 'refused', reason: outcome.reason };
    await store.put(entry.key, marked);
    (outcome.kind === 'conflict' ? result.conflicts : result.refused).push(marked);
  }
  return result;
}

async function carryVersion(
  store: KeyValueStore<OutboxEntry>,
  entries: OutboxEntry[],
  sent: OutboxEntry,
  version: number,
): Promise<void> {
  for (const later of entries) {
    if (later.seq <= sent.seq || recordOf(later) !== recordOf(sent)) continue;
    // An upload kept without a version (before uploads carried one) went on the one before its own.
    if (later.ifVersion !== (sent.ifVersion ?? version - 1)) continue;
    later.ifVersion = version;
    await store.put(later.key, later);
  }
}

/** The next entry's place in the order: after every entry kept. */
export async function nextSeq(store: KeyValueStore<OutboxEntry>, now: number): Promise<number> {
  const entries = await store.all();
  return Math.max(now, ...entries.map((e) => e.seq + 1));
}

/** Notes (or a description) of both versions, the server's first, each once. */
export function mergedText(theirs: unknown, mine: unknown): string {
  const a = typeof theirs === 'string' ? theirs.trim() : '';
  const b = typeof mine === 'string' ? mine.trim() : '';
  if (!a || a === b || a.includes(b)) return a || b;
  if (!b || b.includes(a)) return b;
  return `${a}\n${b}`;
}
