import { createServer, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo } from 'node:net';

export interface ChatRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the fake answers next: a status and headers (`retry-after`). */
export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
}

/**
 * A chat service on loopback (a Teams Workflows trigger, a Slack incoming webhook, a Matrix
 * homeserver): it records each request and answers from `answers` in turn, then `fallback`
 * (Workflows answers 202, Slack 200 "ok", Matrix 200 with the event id). A Matrix homeserver keeps
 * a transaction id's event: the same id sent again is answered the same, not posted twice.
 */
export async function startFakeChat(fallback: FakeAnswer = { status: 200 }) {
  const requests: ChatRequest[] = [];
  const answers: FakeAnswer[] = [];
  const posted = new Map<string, string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method!,
        path: req.url!,
        headers: req.headers,
        body: raw ? JSON.parse(raw) : null,
      });
      const answer = answers.shift() ?? fallback;
      const txn = /\/send\/m\.room\.message\/([^/?]+)$/.exec(req.url ?? '')?.[1];
      let body = answer.status === 200 && !txn ? 'ok' : '';
      if (txn && answer.status === 200) {
        if (!posted.has(txn)) posted.set(txn, `$event${posted.size + 1}`);
        body = JSON.stringify({ event_id: posted.get(txn) });
      }
      res.writeHead(answer.status, answer.headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    requests,
    answers,
    /** Matrix: the events the room shows, one per transaction id. */
    get events() {
      return posted.size;
    },
    url: (path = '') => `http://127.0.0.1:${port}${path}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
