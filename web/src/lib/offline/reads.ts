import { type ApiRouteDef } from '@cm/contracts';
import { useSyncExternalStore } from 'react';
import { keyValueStore } from './idb';

/**
 * The last answer of each building, room and equipment read, kept in IndexedDB, so that a screen
 * opened in a basement shows what it showed last time instead of "You are offline". Only when the
 * network does not answer: online, every screen still asks the server each time (spec section 7:
 * always stale, nothing kept in memory), and what it answers replaces what was kept.
 */
interface SavedRead {
  data: unknown;
  savedAt: number;
}

const store = keyValueStore<SavedRead>('reads');
const kept = new Set(['Buildings', 'Rooms', 'Equipment']);

/** Whether a route's answers are kept for offline use: the inventory's reads. */
export const isKeptRead = (route: ApiRouteDef) => route.method === 'GET' && kept.has(route.tag);

/** The reads answered from the phone just now, by query key, with when they were kept. */
const servedFromPhone = new Map<string, number>();
const listeners = new Set<() => void>();
let snapshot: number | null = null;

function changed(): void {
  snapshot = servedFromPhone.size ? Math.min(...servedFromPhone.values()) : null;
  for (const listener of listeners) listener();
}

/** Runs a read; keeps its answer, or, when the network does not answer, gives the one kept. */
export async function keptRead<T>(
  queryKey: readonly unknown[],
  read: () => Promise<T>,
  unanswered: (error: unknown) => boolean,
): Promise<T> {
  const key = JSON.stringify(queryKey);
  try {
    const data = await read();
    void store.put(key, { data, savedAt: Date.now() }).catch(() => undefined);
    if (servedFromPhone.delete(key)) changed();
    return data;
  } catch (error) {
    if (!unanswered(error)) throw error;
    const saved = await store.get(key).catch(() => undefined);
    if (!saved) throw error;
    servedFromPhone.set(key, saved.savedAt);
    changed();
    return saved.data as T;
  }
}

/** Forgets which reads came from the phone: the connection is back and screens ask again. */
export function forgetServedFromPhone(): void {
  servedFromPhone.clear();
  changed();
}

/** When the oldest data shown from the phone was kept; null when none is shown. */
export function useOfflineDataSince(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => snapshot,
  );
}
