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
    const target = new URL(url);
    const literal = bare(target.hostname);
    if (isIP(literal) && this.rules.refusal(literal, literal)) throw new WebhookFailure('blocked address');
    const options: RequestOptions = {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      // A connection of its own each time: nothing kept from an address judged earlier.
      agent: false,
      lookup: this.lookup,
      signal: AbortSignal.timeout(this.config.ALERTS_SEND_TIMEOUT_MS),
    };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const req = send(target, options, (res: IncomingMessage) => {
        resolve(res.statusCode ?? 0);
        res.destroy();
      });
      req.on('error', (error) => reject(new WebhookFailure(failureWord(error))));
      req.end(body);
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
