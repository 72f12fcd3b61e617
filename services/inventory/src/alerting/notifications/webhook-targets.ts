import { CONFIG } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { type LookupAddress, promises as dns } from 'node:dns';
import { type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type Config } from '../../config';
import { AddressRules } from './webhook-address';
import { webhookUrlRefusal } from './webhook-url';

/** A webhook POST that did not get an answer, with one fixed word for why (never the target's text). */
export class WebhookFailure extends Error {
  constructor(readonly word: string) {
    super(word);
  }
}

const BLOCKED = 'EBLOCKED';

/** What a target answered: its status, and what it asked to wait before the next try. */
export interface TargetAnswer {
  status: number;
  retryAfterMs: number | null;
  /** Only when asked for; never for the log. */
  body?: string;
}

/** `Retry-After` as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Where webhooks may go, and the POST itself. The addresses are judged where the connection is
 * made (a `lookup` of its own), so the address checked is the address connected to: a name that
 * resolves elsewhere between the save and a send, or between two sends, is judged again.
 */
@Injectable()
export class WebhookTargets {
  private readonly rules: AddressRules;

  constructor(@Inject(CONFIG) private readonly config: Config) {
    this.rules = new AddressRules(config.ALERTS_ALLOWED_TARGETS);
  }

  /** The addresses a host name resolves to: the system's resolver (a test drives it). */
  resolve(host: string): Promise<LookupAddress[]> {
    return dns.lookup(host, { all: true, verbatim: true });
  }

  /**
   * Why a webhook may not be saved with this URL, or null. A name that does not resolve now is
   * let through: it is judged again, like every name, when a message is sent.
   */
  async refusal(url: string): Promise<string | null> {
    const basic = webhookUrlRefusal(url, this.config.ALERTS_WEBHOOK_ALLOWED_HOSTS);
    if (basic) return basic;
    const host = new URL(url).hostname;
    let addresses: LookupAddress[];
    try {
      addresses = await within(this.addressesOf(host), this.config.ALERTS_SEND_TIMEOUT_MS);
    } catch {
      return null;
    }
    const refused = this.firstRefused(host, addresses);
    if (!refused) return null;
    const what = `${refused.address}, an address in the ${refused.kind} range`;
    const where = isIP(bare(host)) ? what : `${host}: it resolves to ${what}`;
    return refused.listable
      ? `Webhooks may not go to ${where}. If this receiver is meant to be reached, ask whoever runs Classroom Monitor to list it in ALERTS_ALLOWED_TARGETS`
      : `Webhooks may not go to ${where}`;
  }

  /**
   * POSTs `body` and answers the HTTP status; the answer's body is never read. Throws
   * `WebhookFailure` when there is no answer: timeout, refused, blocked address, …
   */
  async post(url: string, headers: Record<string, string>, body: string): Promise<number> {
    return (await this.request('POST', url, headers, body)).status;
  }

  /**
   * One request to a target, within ALERTS_SEND_TIMEOUT_MS: its status, the wait a 429 or 503
   * asked for (`Retry-After`), and, only where `readBody` says so, up to that many bytes of the
   * answer (a service desk's record id; what is read is parsed, never logged). Throws
   * `WebhookFailure` when there is no answer.
   */
  async request(
    method: 'POST' | 'PUT' | 'PATCH' | 'GET',
    url: string,
    headers: Record<string, string>,
    body: string | null,
    readBody = 0,
  ): Promise<TargetAnswer> {
    const target = new URL(url);
    const literal = bare(target.hostname);
    if (isIP(literal) && this.rules.refusal(literal, literal)) throw new WebhookFailure('blocked address');
    const options: RequestOptions = {
      method,
      headers: body === null ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
      // A connection of its own each time: nothing kept from an address judged earlier.
      agent: false,
      lookup: this.lookup,
      signal: AbortSignal.timeout(this.config.ALERTS_SEND_TIMEOUT_MS),
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<TargetAnswer>((resolve, reject) => {
      const req = send(target, options, (res: IncomingMessage) => {
        const answer = {
          status: res.statusCode ?? 0,
          retryAfterMs: retryAfterMs(res.headers['retry-after']),
        };
        if (readBody <= 0) {
          resolve(answer);
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= readBody) chunks.push(chunk);
          else res.destroy();
        });
        res.on('close', () => resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', () => resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', (error) => reject(new WebhookFailure(failureWord(error))));
      req.end(body ?? undefined);
    });
  }

  /**
   * `net.connect`'s lookup: every address the name has must be allowed, and those are connected to.
   * Class schedule feeds connect through it too (the same rules as webhooks).
   */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (addresses) => {
        const usable = addresses.filter((a) => !options.family || a.family === options.family);
        if (usable.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          return callback(error, '', 0);
        }
        if (this.firstRefused(hostname, addresses)) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} resolves to a refused address`);
          error.code = BLOCKED;
          return callback(error, '', 0);
        }
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        else callback(null, usable[0].address, usable[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };

  private async addressesOf(host: string): Promise<LookupAddress[]> {
    const literal = bare(host);
    const family = isIP(literal);
    return family ? [{ address: literal, family }] : this.resolve(host);
  }

  private firstRefused(
    host: string,
    addresses: LookupAddress[],
  ): { address: string; kind: string; listable: boolean } | null {
    for (const { address } of addresses) {
      const refused = this.rules.refusal(host, address);
      if (refused) return { address, ...refused };
    }
    return null;
  }
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '');

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms).unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A fixed word for a connection that failed: what went wrong, never what the other end said. */
export function failureWord(error: unknown): string {
  const e = error as { name?: string; code?: string; cause?: { name?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.cause?.name === 'TimeoutError') {
    return 'timeout';
  }
  const code = e.code ?? '';
  if (code === BLOCKED) return 'blocked address';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA') return 'name not found';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/.test(code)) return 'TLS error';
  return 'connection failed';
}
