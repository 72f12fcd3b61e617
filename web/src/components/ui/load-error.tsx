import { WifiOff } from 'lucide-react';
import { errorMessage, NetworkError } from '../../lib/api';
import { useOnline } from '../../lib/online';
import { Button } from './button';
import { Card } from './card';

/**
 * A screen that could not be loaded: why, and a way to try again. Without a connection it says so;
 * the screen then loads again by itself when the connection is back (the query client refetches).
 */
export function LoadError({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  const online = useOnline();
  if (!online || error instanceof NetworkError) {
    return (
      <Card role="alert" className="space-y-3 p-5 text-center">
        <WifiOff aria-hidden className="mx-auto h-8 w-8 text-slate-400" />
        <h2 className="text-lg font-semibold text-slate-900">
          {online ? 'No answer from the server' : 'You are offline'}
        </h2>
        <p className="text-slate-700">
          {online
            ? `The ${what} could not be loaded. ${errorMessage(error)}`
            : 'This screen loads again by itself when the connection is back.'}
        </p>
        <Button variant="outline" onClick={onRetry}>
          Retry
        </Button>
      </Card>
    );
  }
  return (
    <Card role="alert" className="space-y-3 p-5 text-center">
      <p className="text-slate-700">
        Could not load the {what}: {errorMessage(error)}
      </p>
      <Button variant="outline" onClick={onRetry}>
        Try again
      </Button>
    </Card>
  );
}
