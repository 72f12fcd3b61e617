import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode } from 'react';

interface FullScreenViewerProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Buttons beside Close (e.g. Replace). */
  actions?: ReactNode;
  children: ReactNode;
}

/** A picture (and what goes with it) over the whole screen, with Close at the top. */
export function FullScreenViewer({ open, onOpenChange, title, actions, children }: FullScreenViewerProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-0 z-50 flex flex-col bg-slate-950 text-white focus:outline-none"
        >
          <div className="mx-auto flex w-full max-w-md items-center gap-2 px-3 py-2">
            <DialogPrimitive.Title className="min-w-0 flex-1 truncate text-lg font-semibold">
              {title}
            </DialogPrimitive.Title>
            {actions}
            <DialogPrimitive.Close className="inline-flex min-h-11 items-center gap-1 rounded-lg bg-white/10 px-4 font-medium hover:bg-white/20">
              <X aria-hidden className="h-5 w-5" />
              Close
            </DialogPrimitive.Close>
          </div>
          <div className="mx-auto w-full max-w-md min-h-0 flex-1 overflow-y-auto px-3 pb-4">{children}</div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
