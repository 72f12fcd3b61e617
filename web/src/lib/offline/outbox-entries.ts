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
  const real = import('./idb').then(({ keyValueStore }) => keyValueStore<OutboxEntry>('outbox'));
  return {
    get: async (key) => (await real).get(key),
    all: async () => (await real).all(),
    put: async (key, value) => (await real).put(key, value),
    remove: async (key) => (await real).remove(key),
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

export const ready = refresh();
