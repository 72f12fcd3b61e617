import { useEffect, useSyncExternalStore } from 'react';

const subscribe = (listener: () => void) => {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
};

/**
 * Whether the browser says it has a connection. "Online" only means a network is there, not that
 * the server answers: calls keep their own deadline either way.
 */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Asks again by itself: when the browser says the connection is back and, given `everyMs`, on a
 * timer too (a phone's "online" is not always told, and a server that answered 503 says nothing).
 */
export function useRetryWhenOnline(retry: () => unknown, everyMs?: number): void {
  useEffect(() => {
    const again = () => void retry();
    const timer = everyMs ? setInterval(again, everyMs) : undefined;
    window.addEventListener('online', again);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', again);
    };
  }, [retry, everyMs]);
}
