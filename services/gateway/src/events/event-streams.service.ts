import { ErrorCode, liveControlEvents, messages } from '@cm/contracts';
import { AppError, CONFIG, MetricsService, RpcClient } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Response } from 'express';
import { type Subscription } from 'nats';
import { type SignedInRequest } from '../identity/current-user';
import { SessionUsers } from '../identity/session-users';
import { type Config } from '../config';
import { SessionStore } from '../session/session-store';
import { ApiTokens } from '../tokens/api-tokens.service';
import { EventMetrics } from './event-metrics';
import { type LiveFrame, LiveFeed, MAX_REPLAY, sseFrame } from './live-feed';

/** A client that reads slower than events come is cut past this much unsent: it resumes by id. */
const MAX_UNSENT_BYTES = 1024 * 1024;
/** How soon EventSource reconnects after a drop (its default is about 3 s). */
const RECONNECT_MS = 1000;

/** What a stream was opened with: the caps count per holder. */
type Holder = { sid: string; tokenId?: undefined } | { tokenId: string; sid?: undefined };

const keyOf = (holder: Holder) => (holder.tokenId ? `token ${holder.tokenId}` : `session ${holder.sid}`);

/** One open `GET /api/events` response. */
class LiveStream {
  /** Frames that came live while the missed ones were read; sent after them. */
  private held: LiveFrame[] | null = [];
  private lastSent = 0;
  private closed = false;

  constructor(
    /** The session's id, or the API token's: what grants access, checked again over time. */
    readonly holder: Holder,
    readonly userId: string,
    private readonly res: Response,
    private readonly onClose: () => void,
  ) {}

  frame(frame: LiveFrame): void {
    if (this.held) this.held.push(frame);
    else this.send(frame);
  }

  resync(): void {
    this.write(sseFrame(liveControlEvents.resync, {}));
  }

  /** Sends what was missed (or a resync), then `ready` at `position`, then what came meanwhile. */
  start(missed: LiveFrame[] | 'resync' | null, position: number): void {
    if (missed === 'resync') this.write(sseFrame(liveControlEvents.resync, {}, position));
    else for (const frame of missed ?? []) this.send(frame);
    this.lastSent = Math.max(this.lastSent, position);
    this.write(sseFrame(liveControlEvents.ready, {}, this.lastSent));
    const held = this.held ?? [];
    this.held = null;
    for (const frame of held) this.send(frame);
  }

  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /** The session (or token) is over: say so (so that the client does not reconnect), then close. */
  endSession(): void {
    this.write(sseFrame(liveControlEvents.ended, { reason: 'session' }));
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
    this.onClose();
  }

  private send(frame: LiveFrame): void {
    // Read again, or already sent live: each id goes out once, in order.
    if (frame.seq <= this.lastSent) return;
    this.lastSent = frame.seq;
    this.write(frame.text);
  }

  private write(text: string): void {
    if (this.closed) return;
    this.res.write(text);
    if (this.res.writableLength > MAX_UNSENT_BYTES) this.close();
  }
}

/**
 * The open live streams of this process: refused past the caps, kept alive by a comment every
 * EVENTS_KEEPALIVE_MS, and ended when their session (or API token) is: on auth's and the other
 * replicas' notices about the user (checked afresh), and at each keep-alive as a backstop (with
 * the session row and user as kept for a few seconds; a revoked token is seen there), by the same
 * rules as the access guard.
 */
@Injectable()
export class EventStreams implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EventStreams.name);
  private readonly streams = new Set<LiveStream>();
  /** Places taken under the caps: streams open and requests on their way to open one. */
  private readonly byHolder = new Map<string, number>();
  private reserved = 0;
  private readonly metrics = new EventMetrics();
  private readonly subscriptions: Subscription[] = [];
  private keepAlive?: NodeJS.Timeout;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly feed: LiveFeed,
    private readonly users: SessionUsers,
    private readonly sessions: SessionStore,
    private readonly rpc: RpcClient,
    private readonly apiTokens: ApiTokens,
    metrics: MetricsService,
  ) {
    metrics.addRegistry(this.metrics.registry);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.keepAlive = setInterval(() => this.keepAll(), this.config.EVENTS_KEEPALIVE_MS);
    for (const notice of [messages.auth.userChanged, messages.auth.sessionsEnded]) {
      try {
        this.subscriptions.push(
          await this.rpc.listen(
            notice,
            ({ id }) => this.recheckUser(id),
            (error) => this.logger.warn(`Not told of ${notice.subject}: ${error.message}`),
          ),
        );
      } catch (error) {
        // The keep-alive check still ends streams, only later.
        this.logger.warn(`Not subscribed to ${notice.subject}: ${String(error)}`);
      }
    }
  }

  /** Streams end before the server closes (it would wait for them): clients resume elsewhere. */
  beforeApplicationShutdown(): void {
    clearInterval(this.keepAlive);
    for (const subscription of this.subscriptions.splice(0)) subscription.unsubscribe();
    for (const stream of [...this.streams]) stream.close();
  }

  async open(req: SignedInRequest, res: Response): Promise<void> {
    const holder: Holder = req.apiTokenId ? { tokenId: req.apiTokenId } : { sid: req.sessionID };
    const userId = req.user!.id;
    const release = this.reserve(holder);
    // The client may leave while the position is read: its place is given back, not kept forever.
    let stream: LiveStream | undefined;
    res.once('close', () => (stream ? stream.close() : release()));
    try {
      if (!this.feed.ready) {
        throw new AppError(
          ErrorCode.SERVICE_UNAVAILABLE,
          'Live updates are not available yet. Try again shortly.',
        );
      }
      const lastEventId = req.get('last-event-id');
      const position = await this.feed.position().catch((error: unknown) => {
        this.logger.warn(`Reading the live stream's position failed: ${String(error)}`);
        throw new AppError(
          ErrorCode.SERVICE_UNAVAILABLE,
          'Live updates are not available yet. Try again shortly.',
        );
      });
      if (res.destroyed) {
        release();
        return;
      }

      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        // No proxy may store it or rewrite it (compressing would hold events back).
        'Cache-Control': 'no-store, no-transform',
        // nginx (the chart's ingress) would otherwise buffer the response.
        'X-Accel-Buffering': 'no',
      });
      req.socket.setNoDelay(true);
      res.write(`retry: ${RECONNECT_MS}\n\n`);

      const opened: LiveStream = new LiveStream(holder, userId, res, () => {
        this.forget(opened, unsubscribe);
        release();
      });
      // Listening before the position is read: an event published meanwhile is held, not lost.
      const unsubscribe = this.feed.subscribe(opened);
      stream = opened;
      this.streams.add(opened);
      this.metrics.streamsOpen.set(this.streams.size);

      try {
        opened.start(await this.missed(lastEventId, position.first, position.last), position.last);
      } catch (error) {
        // Headers are out: closing makes the client reconnect with the same id and try again.
        this.logger.warn(`Replaying live events after ${lastEventId} failed: ${String(error)}`);
        opened.close();
      }
    } catch (error) {
      if (!stream) release();
      throw error;
    }
  }

  /**
   * Takes a place under both caps before anything is awaited, so that requests arriving together
   * cannot all pass the check first; the answer gives it back, once, however the request ends.
   */
  private reserve(holder: Holder): () => void {
    const key = keyOf(holder);
    const max = this.config.EVENTS_MAX_STREAMS_PER_SESSION;
    if ((this.byHolder.get(key) ?? 0) >= max) {
      throw new AppError(
        ErrorCode.TOO_MANY_STREAMS,
        holder.tokenId
          ? `This API token already has ${max} live update streams open: close one before opening another.`
          : `This session already has ${max} live update streams open: close other tabs of the app and reload this one.`,
      );
    }
    if (this.reserved >= this.config.EVENTS_MAX_STREAMS) {
      throw new AppError(
        ErrorCode.EVENTS_BUSY,
        'This server holds as many live update streams as it allows. Try again in a few seconds.',
      );
    }
    this.reserved++;
    this.byHolder.set(key, (this.byHolder.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved--;
      const left = (this.byHolder.get(key) ?? 1) - 1;
      if (left > 0) this.byHolder.set(key, left);
      else this.byHolder.delete(key);
    };
  }

  /** What a client that saw `lastEventId` missed up to `last`; 'resync' when that cannot be told. */
  private async missed(
    lastEventId: string | undefined,
    first: number,
    last: number,
  ): Promise<LiveFrame[] | 'resync' | null> {
    if (lastEventId === undefined) return null;
    if (!/^\d{1,15}$/.test(lastEventId)) return 'resync';
    const seen = Number(lastEventId);
    // Older than the stream keeps, from a stream since recreated, or too many to replay.
    if (seen < first - 1 || seen > last || last - seen > MAX_REPLAY) return 'resync';
    if (seen === last) return null;
    return (await this.feed.read(seen + 1, last)) ?? 'resync';
  }

  private forget(stream: LiveStream, unsubscribe: () => void): void {
    unsubscribe();
    if (!this.streams.delete(stream)) return;
    this.metrics.streamsOpen.set(this.streams.size);
  }

  private keepAll(): void {
    for (const stream of this.streams) {
      stream.comment('keep-alive');
      void this.recheck(stream, false);
    }
  }

  private recheckUser(userId: string): void {
    for (const stream of this.streams) if (stream.userId === userId) void this.recheck(stream, true);
  }

  /**
   * Ends the stream when what opened it no longer grants access. A session: the row is gone or
   * expired (signed out, ended by an account change), or the user is deleted, inactive, or on
   * another session version. A token: revoked, expired, or its user deleted or inactive. `fresh`
   * reads afresh, after a notice; otherwise what was kept for a few seconds will do. When auth or
   * the database cannot answer, the stream stays until they can.
   */
  private async recheck(stream: LiveStream, fresh: boolean): Promise<void> {
    try {
      if (fresh) this.users.drop(stream.userId);
      if (!(await this.grants(stream, fresh))) stream.endSession();
    } catch (error) {
      this.logger.debug?.(`Checking a live stream's session failed, keeping it: ${String(error)}`);
    }
  }

  private async grants({ holder, userId }: LiveStream, fresh: boolean): Promise<boolean> {
    if (holder.tokenId !== undefined) return this.apiTokens.stillValid(holder.tokenId);
    const version = fresh
      ? await this.sessions.storedVersion(holder.sid)
      : await this.sessions.keptVersion(holder.sid);
    const found = version === null ? null : await this.users.get(userId);
    return found !== null && found.user.isActive === 1 && found.sessionVersion === version;
  }
}
