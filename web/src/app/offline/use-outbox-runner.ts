import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useCurrentUser } from '../../features/auth/api/current-user';

const EVERY_MS = 60_000;

/**
 * Sends the changes kept on the phone: when the app starts (or the person signs in again), when
 * the browser says it is back online, and every minute (a phone's "online" is not always told).
 * Background Sync is not relied on: Safari and Firefox have none, and it cannot ask the person.
 */
export function useOutboxRunner(): void {
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const signedIn = Boolean(user);
  useEffect(() => {
    if (!signedIn) return;
    let stopped = false;
    const cleanups: (() => void)[] = [];
    // The sending code comes after the first screen: only the count is needed to draw it.
    void Promise.all([import('../../lib/offline/outbox-store'), import('./tell')]).then(
      ([{ flush, onFlushed }, { tell }]) => {
        if (stopped) return;
        const send = () => {
          if (navigator.onLine !== false) void flush();
        };
        send();
        const timer = setInterval(send, EVERY_MS);
        window.addEventListener('online', send);
        const stop = onFlushed((result) => tell(result, () => void queryClient.invalidateQueries()));
        cleanups.push(
          () => clearInterval(timer),
          () => window.removeEventListener('online', send),
          stop,
        );
      },
    );
    return () => {
      stopped = true;
      for (const cleanup of cleanups) cleanup();
    };
  }, [signedIn, queryClient]);
}
