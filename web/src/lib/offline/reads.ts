import { keyValueStore } from './idb';
import { markServed } from './served';

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
    markServed(key, null);
    return data;
  } catch (error) {
    if (!unanswered(error)) throw error;
    const saved = await store.get(key).catch(() => undefined);
    if (!saved) throw error;
    markServed(key, saved.savedAt);
    return saved.data as T;
  }
}
