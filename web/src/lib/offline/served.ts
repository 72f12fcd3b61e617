import { useSyncExternalStore } from 'react';

/** The reads answered from the phone just now, by query key, with when they were kept. */
const servedFromPhone = new Map<string, number>();
const listeners = new Set<() => void>();
let oldest: number | null = null;

function changed(): void {
  oldest = servedFromPhone.size ? Math.min(...servedFromPhone.values()) : null;
  for (const listener of listeners) listener();
}

export function markServed(key: string, savedAt: number | null): void {
  if (savedAt === null) {
    if (servedFromPhone.delete(key)) changed();
    return;
  }
  servedFromPhone.set(key, savedAt);
  changed();
}

/** When the oldest data shown from the phone was kept; null when none is shown. */
export function useOfflineDataSince(): number | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => oldest,
  );
}
