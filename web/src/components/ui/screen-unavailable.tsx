import { WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api';
import { useOnline, useRetryWhenOnline } from '../../lib/online';
import { Button } from './button';
import { Card } from './card';
import { Spinner } from './spinner';

const reloadedAtKey = 'cm-reloaded-for-new-release';

/** Whether the gateway answers at all: its liveness path, never cached, with a deadline. */
async function serverAnswers(): Promise<boolean> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), 5000);
  try {
    await fetch('/api/healthz', { cache: 'no-store', signal: deadline.signal });
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A page opened before a release cannot fetch the old release's files: the server answers but
 * the file is gone. Loading the page brings the new release. At most once a minute, so that a
 * file missing from the release itself shows its error rather than a loop.
 */
function reloadForNewRelease(): boolean {
  const last = Number(sessionStorage.getItem(reloadedAtKey) ?? 0);
  if (Date.now() - last < 60_000) return false;
  sessionStorage.setItem(reloadedAtKey, String(Date.now()));
  window.location.reload();
  return true;
}

type Probe = 'checking' | 'unreachable' | 'failed';

/**
 * In place of a screen (or a part of one) whose code could not be fetched. Without a connection it
 * says so and tries again by itself when the connection is back; the page is never reloaded
 * offline, which would replace the app with the browser's "no internet" page.
 */
export function ScreenUnavailable({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const online = useOnline();
  const [probe, setProbe] = useState<Probe>('checking');

  useEffect(() => {
    if (!online) return;
    let current = true;
    void serverAnswers().then((answers) => {
      if (!current) return;
      if (!answers) setProbe('unreachable');
      else if (!reloadForNewRelease()) setProbe('failed');
    });
    return () => {
      current = false;
    };
  }, [online]);

  useRetryWhenOnline(onRetry);

  const state = online ? probe : 'unreachable';
  if (state === 'checking') return <Spinner label="Loading the screen" className="py-16" />;
  if (state === 'failed') {
    return (
      <Card role="alert" className="space-y-3 p-5 text-center">
        <p className="text-slate-700">This screen could not be loaded: {errorMessage(error)}</p>
        <Button variant="outline" onClick={onRetry}>
          Try again
        </Button>
      </Card>
    );
  }
  return (
    <Card role="alert" className="space-y-3 p-5 text-center">
      <WifiOff aria-hidden className="mx-auto h-8 w-8 text-slate-400" />
      <h2 className="text-lg font-semibold text-slate-900">You are offline</h2>
      <p className="text-slate-700">This screen opens when you are back online.</p>
      <Button variant="outline" onClick={onRetry}>
        Retry
      </Button>
    </Card>
  );
}
