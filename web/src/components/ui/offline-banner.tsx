import { WifiOff } from 'lucide-react';
import { useOnline } from '../../lib/online';

/** A strip under the header while the browser reports no connection; it goes once it is back. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 bg-slate-800 px-4 py-2 text-sm text-white"
    >
      <WifiOff aria-hidden className="h-4 w-4 shrink-0" />
      You are offline. Changes cannot be saved until the connection is back.
    </div>
  );
}
