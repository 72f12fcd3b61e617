/**
 * A key-value store in IndexedDB, one object store per use (the outbox, saved reads), in one
 * database. Where IndexedDB is missing or refused (a private window in some browsers, the unit
 * tests' DOM) the values live in memory for the page's life instead: the app then works as it did
 * before it kept anything, rather than not at all.
 */
const DB_NAME = 'classroom-monitor';
const STORES = ['outbox', 'reads'] as const;
export type StoreName = (typeof STORES)[number];

export interface KeyValueStore<T> {
  get(key: string): Promise<T | undefined>;
  all(): Promise<T[]>;
  put(key: string, value: T): Promise<void>;
  remove(key: string): Promise<void>;
}

let opened: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    try {
      if (typeof indexedDB === 'undefined') return resolve(null);
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        for (const name of STORES)
          if (!request.result.objectStoreNames.contains(name)) request.result.createObjectStore(name);
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opened;
}

function done(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
}

/** The store of that name; the same one wherever it is asked for. */
export function keyValueStore<T>(name: StoreName): KeyValueStore<T> {
  const memory = new Map<string, T>();
  // The request's result type is the caller's to name: IndexedDB's typings say only IDBValidKey.
  const run = async <R>(
    mode: IDBTransactionMode,
    onDb: (store: IDBObjectStore) => IDBRequest,
    inMemory: () => R,
  ): Promise<R> => {
    const db = await open();
    if (!db) return inMemory();
    return (await done(onDb(db.transaction(name, mode).objectStore(name)))) as R;
  };
  return {
    get: (key) =>
      run(
        'readonly',
        (s) => s.get(key),
        () => memory.get(key),
      ),
    all: () =>
      run(
        'readonly',
        (s) => s.getAll(),
        () => [...memory.values()],
      ),
    put: async (key, value) => {
      await run(
        'readwrite',
        (s) => s.put(value, key),
        () => memory.set(key, value),
      );
    },
    remove: async (key) => {
      await run(
        'readwrite',
        (s) => s.delete(key),
        () => memory.delete(key),
      );
    },
  };
}
