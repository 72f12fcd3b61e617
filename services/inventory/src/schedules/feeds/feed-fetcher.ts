import { MAX_SCHEDULE_FILE_BYTES } from '@cm/contracts';
import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { failureWord, WebhookTargets } from '../../alerting/outbound-addresses';
import { type Config } from '../../config';

/** What a fetch of a feed came to. */
export type FeedAnswer =
  | { kind: 'changed'; text: string; etag: string | null }
  | { kind: 'unchanged' }
  | { kind: 'failed'; error: string };

const MAX_REDIRECTS = 3;

/**
 * Fetches iCalendar feeds: a GET with If-None-Match, under the webhooks' address rules (the URL
 * and every address its host resolves to, judged where the connection is made, redirects too),
 * given up after SCHEDULE_FETCH_TIMEOUT_MS for the whole answer, at most MAX_SCHEDULE_FILE_BYTES.
 */
@Injectable()
export class FeedFetcher {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly targets: WebhookTargets,
  ) {}

  /** Why a feed may not be saved with this URL (the webhook rules, in a feed's words), or null. */
  async refusal(url: string): Promise<string | null> {
    const refused = await this.targets.refusal(url);
    return (
      refused &&
      refused.replace(/^Webhooks may/, 'Schedule feeds may').replace('If this receiver is', 'If this feed is')
    );
  }

  async fetch(url: string, etag: string | null): Promise<FeedAnswer> {
    const signal = AbortSignal.timeout(this.config.SCHEDULE_FETCH_TIMEOUT_MS);
    let target = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const refused = await this.refusal(target).catch(() => 'The address could not be checked');
      if (refused) return { kind: 'failed', error: refused };
      const answer = await this.get(target, etag, signal).catch((error: unknown) => ({
        kind: 'failed' as const,
        error: this.failure(error),
      }));
      if (!('location' in answer)) return answer;
      target = new URL(answer.location, target).toString();
    }
    return { kind: 'failed', error: `The feed redirected more than ${MAX_REDIRECTS} times` };
  }

  private failure(error: unknown): string {
    if (error instanceof FeedTooLarge)
      return `The feed is larger than ${MAX_SCHEDULE_FILE_BYTES / 1024} kB: export fewer weeks or one building at a time`;
    const word = failureWord(error);
    if (word === 'timeout')
      return `The feed did not answer within ${this.config.SCHEDULE_FETCH_TIMEOUT_MS / 1000} s`;
    if (word === 'blocked address')
      return "The feed's host resolves to an address feeds may not reach (loopback, private-use, …); list it in ALERTS_ALLOWED_TARGETS if it is meant to be";
    return `The feed could not be reached (${word})`;
  }

  private get(
    url: string,
    etag: string | null,
    signal: AbortSignal,
  ): Promise<FeedAnswer | { location: string }> {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send(
        target,
        {
          method: 'GET',
          headers: {
            accept: 'text/calendar, text/csv;q=0.9, */*;q=0.5',
            'user-agent': 'ClassroomMonitor-Schedules/1',
            ...(etag && { 'if-none-match': etag }),
          },
          // A connection of its own each time: nothing kept from an address judged earlier.
          agent: false,
          lookup: this.targets.lookup,
          signal,
        },
        (res) => this.answer(res, resolve, reject),
      );
      req.on('error', reject);
      req.end();
    });
  }

  private answer(
    res: IncomingMessage,
    resolve: (answer: FeedAnswer | { location: string }) => void,
    reject: (error: unknown) => void,
  ): void {
    const status = res.statusCode ?? 0;
    if (status === 304) {
      res.resume();
      return resolve({ kind: 'unchanged' });
    }
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      return resolve({ location: res.headers.location });
    }
    if (status !== 200) {
      res.destroy();
      return resolve({ kind: 'failed', error: `The feed answered HTTP ${status}${hint(status)}` });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_SCHEDULE_FILE_BYTES) res.destroy(new FeedTooLarge());
      else chunks.push(chunk);
    });
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) return reject(res.errored ?? new Error('cut off'));
      const text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
      const tag = res.headers.etag;
      resolve({ kind: 'changed', text, etag: typeof tag === 'string' ? tag.slice(0, 512) : null });
    });
  }
}

class FeedTooLarge extends Error {}

function hint(status: number): string {
  if (status === 401 || status === 403)
    return ': the calendar is not published for reading without signing in (see docs/operations.md)';
  if (status === 404) return ': check the address, or whether the calendar is still published';
  return status >= 500 ? ': the calendar server has a problem; the last good schedule is kept' : '';
}
