import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from '../../components/ui/use-toast';
import { useCurrentUser } from '../../features/auth/api/current-user';
import { flush, onFlushed } from '../../lib/offline/outbox-store';

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
    const send = () => {
      if (navigator.onLine !== false) void flush();
    };
    send();
    const timer = setInterval(send, EVERY_MS);
    window.addEventListener('online', send);
    const stop = onFlushed(({ sent, conflicts, refused }) => {
      void queryClient.invalidateQueries();
      if (sent.length)
        toast({
          title: 'Changes sent',
          description: `${sent.length} ${sent.length === 1 ? 'change' : 'changes'} saved on the server.`,
        });
      if (conflicts.length || refused.length)
        toast({
          title: 'Changes need you',
          description: 'Open the waiting changes: some were changed elsewhere or refused.',
          variant: 'destructive',
        });
    });
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', send);
      stop();
    };
  }, [signedIn, queryClient]);
}
