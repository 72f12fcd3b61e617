import { liveControlEvents, liveEventType, streams } from '@cm/contracts';
import { apiRoutes } from '../lib/api-routes';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { currentUserQuery } from '../features/auth/api/current-user';
import { LiveCache } from '../lib/live-events';

/** The SSE event names of everything the live stream carries. */
const liveEventTypes = streams.live.subjects.map(liveEventType);
/** After the stream is refused (signed out, server busy), the next try waits this long, doubling. */
const FIRST_RETRY_MS = 5_000;
const MAX_RETRY_MS = 60_000;

/**
 * Follows `GET /api/events` while signed in and applies each event to the query cache, so open
 * screens show a change without reloading. EventSource itself reconnects after a dropped
 * connection and resumes by the last id; a stream it gives up on (refused: 401, 429, 503) or that
 * the server ends with the session is opened again only after a growing wait, once the app has
 * asked who is signed in (a 401 there shows the sign-in screen and unmounts this), and then every
 * screen refetches, since events may have been missed meanwhile.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const cache = new LiveCache(queryClient);
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let retryMs = FIRST_RETRY_MS;
    /** A stream opened anew (not resumed by EventSource with its last id) may have missed events. */
    let gap = false;

    const giveUp = () => {
      source?.close();
      source = undefined;
      gap = true;
      void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey });
      retry = setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
    };

    function open() {
      const es = new EventSource(apiRoutes.liveEvents.path);
      source = es;
      for (const type of liveEventTypes)
        es.addEventListener(type, (e) => cache.apply(type, e.data as string));
      es.addEventListener(liveControlEvents.ready, () => {
        retryMs = FIRST_RETRY_MS;
        if (gap) cache.refetchAll();
        gap = false;
      });
      es.addEventListener(liveControlEvents.resync, () => cache.refetchAll());
      es.addEventListener(liveControlEvents.ended, giveUp);
      // CLOSED means refused, not dropped: a dropped stream is CONNECTING again by itself.
      es.onerror = () => {
        if (es.readyState === EventSource.CLOSED) giveUp();
      };
    }

    open();
    return () => {
      clearTimeout(retry);
      source?.close();
      cache.dispose();
    };
  }, [queryClient]);
}
