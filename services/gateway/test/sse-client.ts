import { request } from 'node:http';

export interface SseEvent {
  id?: string;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every event so far, in order (comments as `{ event: 'comment', data: text }`). */
  events: SseEvent[];
  /** Whether the server ended the response. */
  ended: () => boolean;
  /** The first event from `after` on that `match` accepts, within `withinMs`. */
  next(match: (e: SseEvent) => boolean, withinMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream, within `withinMs`. */
  end(withinMs?: number): Promise<void>;
  close(): void;
}

const WAIT_MS = 30_000;

/** `GET /api/events` as EventSource reads it: frames split on blank lines, fields by name. */
export function openEvents(
  base: string,
  cookie?: string,
  lastEventId?: string,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      path: '/api/events',
      headers: {
        accept: 'text/event-stream',
        ...(cookie ? { cookie } : {}),
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: SseEvent[] = [];
      const waiters = new Set<() => void>();
      let ended = false;
      let buffer = '';
      const wake = () => waiters.forEach((w) => w());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const e: SseEvent = { event: 'message', data: undefined };
          let data: string | undefined;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) e.event = 'comment';
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') e.id = value;
            else if (field === 'event') e.event = value;
            else if (field === 'data') data = value;
            else if (field === '' && e.event === 'comment') data = value;
          }
          if (data === undefined && e.event !== 'comment') continue;
          e.data = e.event === 'comment' || data === undefined ? data : JSON.parse(data);
          events.push(e);
        }
        wake();
      });
      res.on('end', () => {
        ended = true;
        wake();
      });
      res.on('close', () => {
        ended = true;
        wake();
      });
      const waitFor = <T>(check: () => T | undefined, withinMs: number, what: string) =>
        new Promise<T>((done, fail) => {
          const look = () => {
            const found = check();
            if (found === undefined) return;
            waiters.delete(look);
            clearTimeout(timer);
            done(found);
          };
          const timer = setTimeout(() => {
            waiters.delete(look);
            fail(new Error(`No ${what} within ${withinMs} ms; got ${JSON.stringify(events)}`));
          }, withinMs);
          waiters.add(look);
          look();
        });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        ended: () => ended,
        // Generous: a limit on waiting for an event, which a loaded machine delivers late.
        next: (match, withinMs = WAIT_MS) => waitFor(() => events.find(match), withinMs, 'matching event'),
        end: (withinMs = WAIT_MS) =>
          waitFor(() => (ended ? true : undefined), withinMs, 'end').then(() => undefined),
        close: () => {
          res.destroy();
          req.destroy();
        },
      });
    });
    req.end();
  });
}
