import { useLayoutEffect, useState } from 'react';

const prefix = 'cm.remembered.';

function read(key: string): string | null {
  try {
    return sessionStorage.getItem(prefix + key);
  } catch {
    // Storage can be switched off; the screen then starts afresh, as before.
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    sessionStorage.setItem(prefix + key, value);
  } catch {
    // As above: nothing is remembered, nothing breaks.
  }
}

/**
 * Text a screen keeps while the tab lives (a list's search), so that going to a record and back
 * finds it as it was left.
 */
export function useRememberedText(key: string): [string, (value: string) => void] {
  const [value, setValue] = useState(() => read(key) ?? '');
  const remember = (next: string) => {
    write(key, next);
    setValue(next);
  };
  return [value, remember];
}

/**
 * Keeps the page's scroll position of a list while it is shown (`ready`), and scrolls back to it
 * when the list is shown again. Layout effects: the listener must be gone before the next screen
 * replaces the list, or the jump to that screen's height would be remembered instead.
 */
export function useScrollMemory(key: string, ready: boolean): void {
  useLayoutEffect(() => {
    if (!ready) return;
    const saved = Number(read(`${key}.scroll`));
    if (saved > 0) window.scrollTo(0, saved);
    const record = () => write(`${key}.scroll`, String(Math.round(window.scrollY)));
    window.addEventListener('scroll', record, { passive: true });
    return () => window.removeEventListener('scroll', record);
  }, [key, ready]);
}
