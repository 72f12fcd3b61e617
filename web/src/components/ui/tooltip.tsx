import { type ReactElement, type ReactNode, useEffect, useSyncExternalStore } from 'react';

/*
 * A tooltip only repeats a button's spoken name (its aria-label), so the first screen does not wait
 * for one: Radix's tooltip and Floating UI (about 14 kB on the wire) come once the screen is drawn
 * (docs/benchmarks.md, the first screen's JavaScript). Until then, and if that file cannot be
 * fetched (offline without the service worker), the button is drawn without it. Not lazyComponent:
 * a failed fetch here leaves the plain button, it does not stand in for a screen.
 */
type Radix = typeof import('./radix-tooltip');
let radix: Radix | undefined;
let pending: Promise<void> | undefined;
const listeners = new Set<() => void>();

function load() {
  pending ??= import('./radix-tooltip').then(
    (module) => {
      radix = module;
      // Drawn inside their tooltips, the buttons are made anew: the one that had the keyboard's
      // focus (a dialog's opener, given it back a moment before) has it again once they are drawn.
      const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      for (const listener of listeners) listener();
      if (focused) window.requestAnimationFrame(() => refocus(focused));
    },
    () => {
      pending = undefined;
    },
  );
}

/**
 * What stands in `element`'s place when React has drawn it anew: a button is, inside its tooltip,
 * once the tooltips' code has come (below). The same kind of element under the same
 * aria-label; the element itself while it is still in the page.
 */
export function drawnInPlaceOf(element: HTMLElement | null): HTMLElement | null {
  if (!element || element.isConnected) return element;
  const label = element.getAttribute('aria-label');
  if (!label) return null;
  const named = document.querySelectorAll<HTMLElement>(`${element.localName}[aria-label]`);
  return [...named].find((e) => e.getAttribute('aria-label') === label) ?? null;
}

function refocus(focused: HTMLElement) {
  const now = document.activeElement;
  if (focused.isConnected || (now && now !== document.body)) return;
  drawnInPlaceOf(focused)?.focus();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const useRadix = () => useSyncExternalStore(subscribe, () => radix);

/**
 * Holds the tooltips of a group of buttons (spec section 9: open after 700 ms; moving between
 * the group's triggers within 300 ms opens at once). Its children are drawn again once the
 * tooltips' code is here: put it around the buttons only, not around a field or a form.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  const module = useRadix();
  useEffect(() => {
    if (radix) return;
    // After the screen's own work: the tooltips are for a pointer that rests on a button.
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    idle(load);
  }, []);
  return module ? <module.RadixTooltipProvider>{children}</module.RadixTooltipProvider> : children;
}

/** A button's tooltip, inside a TooltipProvider. */
export function Tooltip({ content, children }: { content: ReactNode; children: ReactElement }) {
  const module = useRadix();
  return module ? <module.RadixTooltip content={content}>{children}</module.RadixTooltip> : children;
}
