import { randomBytes, randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import { Logger } from '@nestjs/common';
import { type KV } from 'nats';
import { encode, isRevisionConflict } from './monitor-store';

const MEMBER_PREFIX = 'members.';
const SESSION_PREFIX = 'sessions.';
const SESSION_ID_ATTEMPTS = 50;
/**
 * How long listing the members may take. The listing is a consumer that ends on the message it
 * sees with nothing pending; an entry that expires between the consumer's start and its delivery
 * is never delivered, and the listing would wait forever (seen under load: a replica stuck in
 * its shutdown, and sweeps that never started).
 */
export const MEMBER_LIST_TIMEOUT_MS = 5000;

/** KV keys and NATS subject tokens allow letters, digits, `-` and `_` here. */
const token = (text: string, max: number) => text.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, max) || 'host';

const sessionKeyOf = (host: string, sessionId: number) => `${SESSION_PREFIX}${token(host, 64)}.${sessionId}`;

/** A replica id that says where it runs: `<host>-<random>`. */
export function newMemberId(host = hostname()): string {
  return `${token(host, 40)}-${randomBytes(4).toString('hex')}`;
}

/**
 * The live replicas, in a KV bucket whose entries expire after the member TTL unless renewed:
 * a replica that stops renewing (crashed, cut off) drops out by itself; one that stops cleanly
 * deletes its entry at once. The same bucket holds each process's ICMP session id per host, so
 * two processes sharing a network stack never use the same one (replies carry it back, and a
 * process takes only replies with its own).
 */
export class Membership {
  private readonly logger = new Logger(Membership.name);
  private readonly sessionKey: string;
  /** 0 once the claim is lost or released. */
  private sessionRevision: number;
  private timer?: NodeJS.Timeout;
  private joined = false;

  private constructor(
    private readonly kv: KV,
    readonly memberId: string,
    readonly sessionId: number,
    private readonly ttlMs: number,
    host: string,
    sessionRevision: number,
  ) {
    this.sessionKey = sessionKeyOf(host, sessionId);
    this.sessionRevision = sessionRevision;
  }

  /**
   * Claims a session id on this host (the given one, or a random free one) and starts renewing
   * the claim. A given id that another process holds is an error; a random one is drawn again.
   */
  static async claim(
    kv: KV,
    options: { ttlMs: number; sessionId?: number; host?: string; memberId?: string },
  ): Promise<Membership> {
    const host = options.host ?? hostname();
    const memberId = options.memberId ?? newMemberId(host);
    for (let attempt = 0; attempt < SESSION_ID_ATTEMPTS; attempt++) {
      const sessionId = options.sessionId ?? randomInt(1, 65_535);
      const key = sessionKeyOf(host, sessionId);
      try {
        const revision = await kv.create(key, encode({ memberId }));
        const membership = new Membership(kv, memberId, sessionId, options.ttlMs, host, revision);
        membership.startRenewing();
        return membership;
      } catch (error) {
        if (!isRevisionConflict(error)) throw error;
        if (options.sessionId !== undefined) {
          throw new Error(
            `MONITOR_SESSION_ID ${sessionId} is in use by another monitor process on ${host}; unset it or pick another`,
          );
        }
      }
    }
    throw new Error(`No free ICMP session id found on ${host} after ${SESSION_ID_ATTEMPTS} attempts`);
  }

  /** Becomes one of the replicas that sweeps are split over. */
  async join(): Promise<void> {
    this.joined = true;
    await this.renewMember();
  }

  /** Leaves at once (the next sweep is split without this replica) and releases the session id. */
  async leave(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const wasJoined = this.joined;
    this.joined = false;
    if (wasJoined) await this.kv.delete(this.memberKey).catch(() => undefined);
    if (this.sessionRevision > 0) {
      await this.kv.delete(this.sessionKey, { previousSeq: this.sessionRevision }).catch(() => undefined);
    }
  }

  /**
   * Member ids whose entry has not expired, sorted, each once: the listing is a consumer of the
   * bucket's stream, so a member that renews its entry while the keys are read is listed twice.
   */
  async live(timeoutMs = MEMBER_LIST_TIMEOUT_MS): Promise<string[]> {
    const keys = await this.kv.keys(`${MEMBER_PREFIX}*`);
    const timer = setTimeout(
      () => keys.stop(new Error(`Listing the monitor replicas took over ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const ids = new Set<string>();
    try {
      for await (const key of keys) ids.add(key.slice(MEMBER_PREFIX.length));
    } finally {
      clearTimeout(timer);
    }
    return [...ids].sort();
  }

  private get memberKey(): string {
    return `${MEMBER_PREFIX}${this.memberId}`;
  }

  private startRenewing(): void {
    this.timer = setInterval(() => {
      this.renew().catch((error: unknown) =>
        this.logger.warn(`Renewing membership failed: ${String(error)}`),
      );
    }, this.ttlMs / 3);
  }

  private async renew(): Promise<void> {
    if (this.sessionRevision > 0) {
      try {
        this.sessionRevision = await this.kv.update(
          this.sessionKey,
          encode({ memberId: this.memberId }),
          this.sessionRevision,
        );
      } catch (error) {
        if (!isRevisionConflict(error)) throw error;
        // The claim expired while we could not renew it and another process took the id.
        this.sessionRevision = 0;
        this.logger.error(
          `The claim on ICMP session id ${this.sessionId} lapsed and another process took it; restart this replica`,
        );
      }
    }
    if (this.joined) await this.renewMember();
  }

  private async renewMember(): Promise<void> {
    await this.kv.put(this.memberKey, encode({ memberId: this.memberId, sessionId: this.sessionId }));
  }
}
