import { Logger } from '@nestjs/common';
import { type KV } from 'nats';
import { decode, encode, isRevisionConflict } from './monitor-store';

const LEADER_KEY = 'leader';

interface LeaderValue {
  memberId: string;
}

/**
 * One leader among the replicas through a KV key written only with revision checks. The holder
 * renews it every third of the lease; another replica takes it over when its revision has not
 * moved for a whole lease by that replica's own clock, so clocks need not agree.
 */
export class LeaderLease {
  private readonly logger = new Logger(LeaderLease.name);
  private revision = 0;
  private renewedAt = 0;
  private seen?: { revision: number; since: number };
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;

  constructor(
    private readonly kv: KV,
    private readonly memberId: string,
    private readonly leaseMs: number,
    private readonly onChange: (leader: boolean) => void = () => undefined,
  ) {}

  /** True while this replica holds a lease renewed within the last lease period. */
  get isLeader(): boolean {
    return this.revision > 0 && performance.now() - this.renewedAt < this.leaseMs;
  }

  start(): void {
    const loop = () => {
      this.ticking = this.tick()
        .catch((error: unknown) => this.logger.warn(`Leader lease check failed: ${String(error)}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, this.leaseMs / 3);
        });
    };
    this.timer = setTimeout(loop, 0);
  }

  /** Stops renewing and hands the lease back, so another replica takes over without waiting. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    if (this.revision > 0) {
      await this.kv.delete(LEADER_KEY, { previousSeq: this.revision }).catch(() => undefined);
      this.lose();
    }
  }

  async tick(): Promise<void> {
    const wasLeader = this.isLeader;
    const entry = await this.kv.get(LEADER_KEY);
    const holder = decode<LeaderValue>(entry);
    const value = encode({ memberId: this.memberId } satisfies LeaderValue);
    const now = performance.now();
    try {
      if (!entry || !holder) {
        this.take(
          entry
            ? await this.kv.update(LEADER_KEY, value, entry.revision)
            : await this.kv.create(LEADER_KEY, value),
          now,
        );
      } else if (holder.memberId === this.memberId && entry.revision === this.revision) {
        this.take(await this.kv.update(LEADER_KEY, value, entry.revision), now);
      } else {
        if (this.revision > 0) this.lose();
        if (this.seen?.revision !== entry.revision) this.seen = { revision: entry.revision, since: now };
        else if (now - this.seen.since >= this.leaseMs) {
          this.logger.log(`Leader ${holder.memberId} stopped renewing its lease; taking over`);
          this.take(await this.kv.update(LEADER_KEY, value, entry.revision), now);
        }
      }
    } catch (error) {
      if (!isRevisionConflict(error)) throw error;
      if (this.revision > 0) this.lose();
    } finally {
      if (wasLeader !== this.isLeader) this.onChange(this.isLeader);
    }
  }

  /** `at` is before the write: this replica's lease ends no later than the others think. */
  private take(revision: number, at: number): void {
    this.revision = revision;
    this.renewedAt = at;
    this.seen = undefined;
  }

  private lose(): void {
    this.revision = 0;
    this.renewedAt = 0;
  }
}
