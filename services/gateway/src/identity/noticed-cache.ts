import { type NoticeDef } from '@cm/contracts';
import { type RpcClient } from '@cm/platform';
import { type Logger } from '@nestjs/common';
import { type Subscription as NatsSubscription } from 'nats';
import { type Subscription } from 'rxjs';
import { type z } from 'zod';

/** Beyond this many entries kept, the expired ones are dropped (a campus has far fewer staff). */
const MAX_KEPT = 10_000;
/** While NATS cannot be reached, how often the subscription to the notice is tried again. */
const RETRY_LISTEN_MS = 1_000;

export interface NoticedCacheOptions<V, N extends NoticeDef> {
  /** The notice that makes kept entries stale, on every replica. */
  notice: N;
  /** How long an entry is used without reading it again: the bound when a notice is lost. */
  ttlMs: number;
  /** What the notice is about, for the log. */
  what: string;
  /** Which kept entries a notice makes stale. */
  staleBy(payload: z.output<N['payload']>): (key: string, value: V) => boolean;
}

/**
 * Entries read elsewhere (auth, the database), kept for a few seconds, and dropped on every
 * replica when the notice says they changed. They are trusted only while this replica is
 * subscribed and connected: a lost connection drops them all, since notices were missed, and
 * until the subscription is back every `get` reads afresh, as it would without this cache.
 */
export class NoticedCache<V, N extends NoticeDef = NoticeDef> {
  private readonly kept = new Map<string, { value: V; until: number }>();
  /** One read per key at a time: fifty requests after an expiry read once. */
  private readonly reading = new Map<string, Promise<V | null>>();
  /** Raised by every drop and reset: a read that began before it may bring stale data. */
  private generation = 0;
  private subscription?: NatsSubscription;
  private connected = false;
  private statusWatch?: Subscription;
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly rpc: RpcClient,
    private readonly logger: Logger,
    private readonly options: NoticedCacheOptions<V, N>,
  ) {}

  start(): void {
    this.statusWatch = this.rpc.status.subscribe((status) => {
      // Notices may have been missed while disconnected; whatever was kept from before is stale.
      this.reset();
      this.connected = status === 'connected';
    });
    void this.subscribe();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.statusWatch?.unsubscribe();
    this.subscription?.unsubscribe();
  }

  /** The kept value, or what `read` finds (kept when not null and nothing changed meanwhile). */
  get(key: string, read: (key: string) => Promise<V | null>): Promise<V | null> {
    const kept = this.kept.get(key);
    if (kept && kept.until > Date.now()) return Promise.resolve(kept.value);
    let reading = this.reading.get(key);
    if (!reading) {
      const fresh = this.read(key, read);
      reading = fresh;
      this.reading.set(key, fresh);
      const done = () => {
        if (this.reading.get(key) === fresh) this.reading.delete(key);
      };
      fresh.then(done, done);
    }
    return reading;
  }

  /** What is kept under `key` is out of date (this replica changed it, or a notice said so). */
  drop(key: string): void {
    this.generation++;
    this.kept.delete(key);
    this.reading.delete(key);
  }

  dropWhere(stale: (key: string, value: V) => boolean): void {
    this.generation++;
    this.reading.clear();
    for (const [key, { value }] of this.kept) if (stale(key, value)) this.kept.delete(key);
  }

  private async read(key: string, read: (key: string) => Promise<V | null>): Promise<V | null> {
    const generation = this.generation;
    const value = await read(key);
    if (value !== null && this.trusted() && generation === this.generation) {
      if (this.kept.size >= MAX_KEPT) this.forgetExpired();
      this.kept.set(key, { value, until: Date.now() + this.options.ttlMs });
    }
    return value;
  }

  private trusted(): boolean {
    return this.subscription !== undefined && this.connected;
  }

  private reset(): void {
    this.generation++;
    this.kept.clear();
    this.reading.clear();
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [key, kept] of this.kept) if (kept.until <= now) this.kept.delete(key);
  }

  private async subscribe(): Promise<void> {
    const { notice, what, staleBy } = this.options;
    try {
      const subscription = await this.rpc.listen(
        notice,
        (payload) => this.dropWhere(staleBy(payload)),
        (error) => {
          // Refused by NATS (a permissions file from before this notice existed): read every time.
          this.logger.error(`Not told of ${what}, so reading afresh on every request: ${error.message}`);
          this.subscription = undefined;
          this.reset();
        },
      );
      // A refusal can come before the subscription is confirmed: then it was never trusted.
      if (!subscription.isClosed()) this.subscription = subscription;
    } catch (error) {
      if (this.stopped) return;
      this.logger.warn(`Subscribing to ${what} failed, trying again: ${String(error)}`);
      this.retry = setTimeout(() => void this.subscribe(), RETRY_LISTEN_MS);
    }
  }
}
