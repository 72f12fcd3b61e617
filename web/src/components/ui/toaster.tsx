import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { cn } from '../../lib/cn';
import { dismissToast, useToasts } from './use-toast';

/**
 * How much of the screen's bottom the toasts take, as `--toast-space` on the page, which the
 * shell adds below its content: the last card's buttons can then be scrolled clear of a toast.
 * A page already at its bottom follows, so what was in view there stays in view.
 */
function useToastSpace(showing: boolean) {
  const viewport = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    const root = document.documentElement;
    let space = 0;
    const apply = () => {
      const next =
        showing && viewport.current ? Math.ceil(viewport.current.getBoundingClientRect().height) : 0;
      if (next === space) return;
      const atBottom = window.innerHeight + window.scrollY >= root.scrollHeight - 8;
      root.style.setProperty('--toast-space', `${next}px`);
      if (atBottom && next > space) window.scrollBy(0, next - space);
      space = next;
    };
    const keepFieldClear = () => {
      if (showing && viewport.current) scrollFieldClear(viewport.current);
    };
    apply();
    keepFieldClear();
    if (!showing || typeof ResizeObserver === 'undefined' || !viewport.current) return;
    const observer = new ResizeObserver(() => {
      apply();
      keepFieldClear();
    });
    observer.observe(viewport.current);
    document.addEventListener('focusin', keepFieldClear);
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', keepFieldClear);
      root.style.setProperty('--toast-space', '0px');
    };
  }, [showing]);
  return viewport;
}

/**
 * A field being typed in (a two-factor code right after the welcome toast, say) is scrolled up
 * clear of the toasts rather than typed blind under them for five seconds; the page's
 * `--toast-space` gives it the room.
 */
function scrollFieldClear(toasts: HTMLElement) {
  const field = document.activeElement;
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return;
  const top = toasts.getBoundingClientRect().top;
  const { bottom } = field.getBoundingClientRect();
  const gap = 8;
  if (bottom > top - gap) window.scrollBy(0, bottom - top + gap);
}

/** Spec section 9: auto-close after 5000 ms, swipe right past 50 px, F8 focuses the region. */
export function Toaster() {
  const toasts = useToasts();
  const viewport = useToastSpace(toasts.some((t) => t.open));
  return (
    <ToastPrimitive.Provider duration={5000} swipeDirection="right" swipeThreshold={50}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => !open && dismissToast(t.id)}
          data-slot="toast"
          data-variant={t.variant ?? 'default'}
          className={cn(
            'relative flex w-full items-start gap-2 rounded-xl border p-4 pr-12 shadow-lg',
            'data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[state=closed]:opacity-0',
            t.variant === 'destructive'
              ? 'border-red-700 bg-red-600 text-white'
              : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <div className="min-w-0 flex-1 space-y-1">
            <ToastPrimitive.Title data-slot="toast-title" className="text-sm font-semibold">
              {t.title}
            </ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description
                data-slot="toast-description"
                className="text-sm break-words opacity-90"
              >
                {t.description}
              </ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close"
            className="absolute top-1 right-1 flex h-11 w-11 items-center justify-center rounded-lg opacity-70 hover:opacity-100"
          >
            <X aria-hidden className="h-4 w-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* Above the bottom navigation, so that the header's Back and Sign Out stay reachable. */}
      <ToastPrimitive.Viewport
        ref={viewport}
        className="fixed bottom-[calc(4rem+env(safe-area-inset-bottom))] left-1/2 z-[100] flex w-full max-w-md -translate-x-1/2 flex-col gap-2 p-3 outline-none"
      />
    </ToastPrimitive.Provider>
  );
}
