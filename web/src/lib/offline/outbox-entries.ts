import { useSyncExternalStore } from 'react';
import { keyValueStore } from './idb';
import { type OutboxEntry } from './outbox';

/**
 * The outbox's entries as the screens show them (the header's count): apart from the sending, so
 * that a screen showing the count does not carry the code that sends.
 */
export const store = keyValueStore<OutboxEntry>('outbox');
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
