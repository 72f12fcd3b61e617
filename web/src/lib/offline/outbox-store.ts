import { ApiError, NetworkError } from '../api';
import { currentEntries, ready, refresh, store } from './outbox-entries';
import { flushOutbox, type FlushResult, mergedText, nextSeq, type OutboxEntry } from './outbox';
import { outcomeOf, sendEntry } from './send';

import { CONFLICTED, type Conflicted, QUEUED, type Queued } from './markers';

const flushedListeners = new Set<(result: FlushResult) => void>();

/** Told after each round of sending that sent or marked anything (to refresh screens, say so). */
export function onFlushed(listener: (result: FlushResult) => void): () => void {
  flushedListeners.add(listener);
  return () => flushedListeners.delete(listener);
}

export type NewEntry = Omit<OutboxEntry, 'seq' | 'queuedAt' | 'state'>;

async function enqueue(entry: NewEntry, marked: Partial<OutboxEntry> = {}): Promise<void> {
  const now = Date.now();
  const seq = await nextSeq(store, now);
  await store.put(entry.key, { ...entry, seq, queuedAt: now, state: 'waiting', ...marked });
  await refresh();
}

/**
 * A save from a form: sent at once when the browser is online and nothing waits before it (so
 * the form says how it went, as before); kept in the outbox when offline, when the call gets no
 * answer at all, or behind changes still waiting (they go first). A call that timed out is not
 * kept: the server may have it, and the person's retry with the same key says.
 */
export async function saveOrQueue<T>(
  entry: NewEntry,
  send: () => Promise<T>,
): Promise<T | Queued | Conflicted> {
  // Without the outbox's store (its code could not load) a save online still goes straight out.
  await ready().catch(() => undefined);
  const waiting = currentEntries().some((e) => e.state === 'waiting');
  if (navigator.onLine === false || waiting) {
    await enqueue(entry);
    if (navigator.onLine !== false) void flush();
    return QUEUED;
  }
  try {
    return await send();
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      const outcome = outcomeOf(error);
      if (outcome.kind !== 'conflict') throw error;
      await enqueue(entry, { state: 'conflict', reason: outcome.reason, current: outcome.current });
      return CONFLICTED;
    }
    if (!(error instanceof NetworkError) || error.reason !== 'offline') throw error;
    await enqueue(entry);
    return QUEUED;
  }
}

let running: Promise<FlushResult> | null = null;

/**
 * One round of sending at a time in this page, and in this browser where it has Web Locks (two
 * tabs open); a second caller shares the round under way. Each entry carries its Idempotency-Key,
 * so that even a round repeated after its answers were lost makes nothing twice.
 */
export function flush(): Promise<FlushResult> {
  running ??= (async () => {
    try {
      const round = () => flushOutbox(store, sendEntry);
      const locks = (navigator as Navigator & { locks?: LockManager }).locks;
      const result = locks ? await locks.request('cm-outbox', round) : await round();
      await refresh();
      if (result.sent.length || result.conflicts.length || result.refused.length)
        for (const listener of flushedListeners) listener(result);
      return result;
    } finally {
      running = null;
    }
  })();
  return running;
}

/** The person's answer to a conflict: send mine over theirs, keep theirs, or merge the notes. */
export async function resolveConflict(key: string, choice: 'mine' | 'theirs' | 'merge'): Promise<void> {
  const entry = currentEntries().find((e) => e.key === key);
  if (!entry?.current) return;
  if (choice === 'theirs') return discard(key);
  const body = { ...entry.body };
  if (choice === 'merge')
    for (const field of mergeableFields)
      if (field in body || field in entry.current)
        body[field] = mergedText(entry.current[field], body[field]);
  const version = entry.current.version;
  // The same key: the refusal stored nothing under it, so it is free for this body.
  await store.put(key, {
    ...entry,
    body,
    ifVersion: typeof version === 'number' ? version : undefined,
    state: 'waiting',
    reason: undefined,
    current: undefined,
  });
  await refresh();
  void flush();
}

/** The free-text fields that merging keeps both of. */
export const mergeableFields = ['notes', 'description'] as const;

/** Forgets an entry (a refused one the person will redo, a conflict settled for the server's). */
export async function discard(key: string): Promise<void> {
  await store.remove(key);
  await refresh();
}
