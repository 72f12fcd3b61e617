import { ErrorCode } from '../errors';
import { type ApiRouteDef } from '../route-def';

/** Live push to open screens (see `live.ts` for the events). */
export const eventRoutes = {
  liveEvents: {
    method: 'GET',
    path: '/api/events',
    summary:
      'Server-Sent Events for open screens: equipment.status, inventory.changed and monitoring.state as they are committed, each with the stream sequence as its id; a comment at least every 15 s; Last-Event-ID resumes after a short disconnect (event resync when too old); the stream ends with the session, or with the API token when one opened it (event ended; a revoked or expired token is noticed within a keep-alive). 429 EVENTS.TOO_MANY_STREAMS past the streams one session (or API token) may hold, 503 EVENTS.SERVER_BUSY past those of the replica',
    tag: 'Events',
    access: 'user',
    responseContentType: 'text/event-stream',
    errors: [ErrorCode.TOO_MANY_STREAMS, ErrorCode.EVENTS_BUSY],
  },
} as const satisfies Record<string, ApiRouteDef>;
