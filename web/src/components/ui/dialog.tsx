import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ComponentProps, type KeyboardEvent, type ReactNode, useRef } from 'react';
import { cn } from '../../lib/cn';
import { drawnInPlaceOf } from './tooltip';

export const Dialog = DialogPrimitive.Root;

const focusable = 'input, select, textarea, button, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * A centred panel within the phone-width column; its body scrolls when it is taller than the screen.
 * It opens on its first field rather than on Close, and closing gives the focus back to what had it
 * before (the button that opened it).
 */
export function DialogContent({
  title,
  description,
  children,
  className,
  onOpenAutoFocus,
  onCloseAutoFocus,
  onKeyDown,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { title: ReactNode; description?: ReactNode }) {
  const body = useRef<HTMLDivElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md',
          '-translate-x-1/2 -translate-y-1/2 flex-col rounded-2xl bg-white shadow-xl focus:outline-none',
          className,
        )}
        {...(description ? {} : { 'aria-describedby': undefined })}
        onOpenAutoFocus={(event) => {
          // Radix gives the focus back to a Dialog.Trigger only; ours are opened by their own buttons.
          opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          onOpenAutoFocus?.(event);
          if (event.defaultPrevented) return;
          const first = [...(body.current?.querySelectorAll<HTMLElement>(focusable) ?? [])].find(
            (e) => !e.matches(':disabled'),
          );
          if (!first) return;
          event.preventDefault();
          first.focus();
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          // The opener, or the button drawn in its place while the dialog was open.
          const target = drawnInPlaceOf(opener.current);
          if (event.defaultPrevented || !target) return;
          event.preventDefault();
          target.focus();
        }}
        onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
          onKeyDown?.(event);
          // A toast shown over the dialog is the topmost layer and takes Escape for itself (without
          // stopping it): the dialog closes on the same key instead of needing a second one.
          if (event.key === 'Escape' && !event.defaultPrevented) close.current?.click();
        }}
        {...props}
      >
        <div className="flex items-center justify-between gap-2 border-b border-slate-200 py-1 pr-1 pl-5">
          <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">
            {title}
          </DialogPrimitive.Title>
          <DialogPrimitive.Close
            ref={close}
            aria-label="Close"
            className="flex h-11 w-11 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100"
          >
            <X aria-hidden className="h-5 w-5" />
          </DialogPrimitive.Close>
        </div>
        {description ? (
          <DialogPrimitive.Description className="px-5 pt-3 text-sm text-slate-600">
            {description}
          </DialogPrimitive.Description>
        ) : null}
        <div ref={body} className="overflow-y-auto px-5 py-4">
          {children}
        </div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
