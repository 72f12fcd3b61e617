import { type ReactNode, useSyncExternalStore } from 'react';

interface ToastInput {
  title: string;
  description?: ReactNode;
  /** Failures use the destructive (red) style. */
  variant?: 'default' | 'destructive';
}

interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

// Spec section 9: a dismissed toast stays mounted this long, so a closing animation is never cut.
const REMOVE_DELAY_MS = 1_000_000;
// Spec section 8: only one toast at a time; a new one replaces the one on screen.
const LIMIT = 1;

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const removals = new Map<number, ReturnType<typeof setTimeout>>();

function emit(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number) {
  emit(toasts.map((t) => (t.id === id ? { ...t, open: false } : t)));
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      emit(toasts.filter((t) => t.id !== id));
    }, REMOVE_DELAY_MS),
  );
}

/** Shows a toast, replacing the one on screen. */
export function toast(input: ToastInput): number {
  const id = nextId++;
  emit([{ ...input, id, open: true }, ...toasts].slice(0, LIMIT));
  return id;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}
