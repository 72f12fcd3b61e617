import { useQueryClient } from '@tanstack/react-query';
import { WifiOff } from 'lucide-react';
import { useOfflineDataSince } from '../../lib/offline/served';
import { useOnline } from '../../lib/online';
import { timeAgo } from '../../lib/time';
import { useNow } from '../../lib/use-now';

/**
 * A strip under the header while the browser reports no connection; it goes once it is back. It
 * says how old the data on the screen is: the oldest answer shown, from the phone or from before
 * the connection went.
 */
export function OfflineBanner() {
  const online = useOnline();
  const fromPhone = useOfflineDataSince();
  const queryClient = useQueryClient();
  const now = useNow(30_000);
  if (online) return null;
  const shown = queryClient
    .getQueryCache()
    .getAll()
    .filter((q) => q.getObserversCount() > 0 && q.state.status === 'success' && q.state.dataUpdatedAt > 0)
    .map((q) => q.state.dataUpdatedAt);
  const oldest = Math.min(...shown, fromPhone ?? Infinity);
  return (
    <div role="status" className="bg-slate-800 px-4 py-2 text-center text-sm text-white">
      <p className="flex items-center justify-center gap-2">
        <WifiOff aria-hidden className="h-4 w-4 shrink-0" />
        You are offline. Changes are kept on this phone and sent when the connection is back.
      </p>
      {Number.isFinite(oldest) ? (
        <p className="font-medium">Offline — data from {timeAgo(oldest, Math.max(now, oldest))}</p>
      ) : null}
    </div>
  );
}
