import { useEffect, useRef } from 'react';

/** A form asked to open with its draft (a refused create sent back to it), once. */
let requested: string | null = null;
const formListeners = new Set<() => void>();

export function requestForm(key: string): void {
  requested = key;
  for (const listener of formListeners) listener();
}

/**
 * Opens the form of `key` when it is asked for: on the screen's first render, or later when the
 * screen is already the one shown.
 */
export function useRequestedForm(key: string, open: () => void): void {
  const opener = useRef(open);
  useEffect(() => {
    opener.current = open;
  });
  useEffect(() => {
    const check = () => {
      if (requested !== key) return;
      requested = null;
      opener.current();
    };
    check();
    formListeners.add(check);
    return () => void formListeners.delete(check);
  }, [key]);
}
