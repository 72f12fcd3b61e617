import { useSyncExternalStore } from 'react';
import { type KeyValueStore } from './idb';
import { type OutboxEntry } from './outbox';

/**
 * The outbox's entries as the screens show them (the header's count): apart from the sending, so
 * that a screen showing the count does not carry the code that sends.
 */
// IndexedDB's code comes after the first screen; the count waits for it.
export const store: KeyValueStore<OutboxEntry> = lazyStore();

function lazyStore(): KeyValueStore<OutboxEntry> {
  // Asked for at once, so that it is here before the network goes; a load that failed (the page
  // left, the network lost) is asked for again by the next use rather than kept as a failure.
  let real: Promise<KeyValueStore<OutboxEntry>> | undefined;
  const load = () => {
    real ??= import('./idb').then(({ keyValueStore }) => keyValueStore<OutboxEntry>('outbox'));
    real.catch(() => (real = undefined));
    return real;
  };
  void load().catch(() => undefined);
  return {
    get: async (key) => (await load()).get(key),
    all: async () => (await load()).all(),
    put: async (key, value) => (await load()).put(key, value),
    remove: async (key) => (await load()).remove(key),
  };
}
let entries: OutboxEntry[] = [];
const listeners = new Set<() => void>();

export async function refresh(): Promise<void> {
  entries = (await store.all()).sort((a, b) => a.seq - b.seq);
  for (const listener of listeners) listener();
}

export const currentEntries = (): OutboxEntry[] => entries;

/** Every entry kept, in order: waiting, conflicting and refused. */
export function useOutbox(): OutboxEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => entries,
  );
}

let loaded: Promise<void> | undefined;

/**
 * The entries read once. A first read that failed (IndexedDB's code did not arrive: the page left,
 * the network went) is tried again by the next caller, rather than kept as a failure for good.
 */
export function ready(): Promise<void> {
  loaded ??= refresh().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}
void ready().catch(() => undefined);
