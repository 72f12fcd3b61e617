import { useSyncExternalStore } from 'react';

/**
 * Whether a new release waits, and how to switch to it. The service worker's registration
 * (register-service-worker.ts) fills it; the prompt reads it. Apart from the registration so that
 * the prompt renders in tests, where there is no service worker.
 */
let waiting = false;
let apply: () => void = () => window.location.reload();
const listeners = new Set<() => void>();

export function setUpdateWaiting(applyUpdate: () => void): void {
  waiting = true;
  apply = applyUpdate;
  listeners.forEach((listener) => listener());
}

export function applyUpdate(): void {
  apply();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => waiting,
    () => false,
  );
}
