import { RefreshCw } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { applyUpdate, useUpdateWaiting } from './update-store';

/** A strip at the top once a new release waits; the page reloads only when asked to. */
export function UpdatePrompt() {
  const waiting = useUpdateWaiting();
  if (!waiting) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-3 bg-brand-900 px-4 py-1 text-sm text-white"
    >
      <span>New version</span>
      <Button variant="header" onClick={applyUpdate}>
        <RefreshCw aria-hidden className="h-4 w-4" />
        Reload
      </Button>
    </div>
  );
}
