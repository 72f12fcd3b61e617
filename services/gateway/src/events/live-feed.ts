import { eventSchemas, type EventSubject, liveEventType, namespacedName, streams } from '@cm/contracts';
import { CONFIG, JetStreamConnection, retryWithBackoff } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type ConsumerMessages, DeliverPolicy, type JsMsg, JSONCodec } from 'nats';
import { type Config } from '../config';

/** One live event as it goes out on every stream: written once, sent as is. */
export interface LiveFrame {
  seq: number;
  text: string;
}

export interface LiveListener {
  frame(frame: LiveFrame): void;
  /** Events were lost between the last frame and the next (aged out, stream recreated). */
  resync(): void;
}

/** What the stream holds now: its first and last sequence (first is last + 1 when empty). */
export interface StreamPosition {
  first: number;
  last: number;
}

/** Past this many missed events a client refetches instead of replaying them one by one. */
export const MAX_REPLAY = 5000;

/**
 * The newest events followed live are kept, so that the clients of a replica that stopped, which
 * all reconnect at once with their last ids, resume from memory rather than with a consumer each.
 */
const KEPT_FRAMES = 2000;

const json = JSONCodec<unknown>();

/** `id`, `event` and `data` lines of one Server-Sent Event. */
export function sseFrame(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * This process's view of the `LIVE` stream: one ordered consumer from the newest event on, fanned
 * out to every open `GET /api/events` response, and reads of what a client missed (from a
 * sequence up to now) for `Last-Event-ID`. Every replica follows the stream on its own, so an
 * event reaches the streams of all of them, with the same sequence as its id.
 */
@Injectable()
export class LiveFeed implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LiveFeed.name);
  private readonly listeners = new Set<LiveListener>();
  private connection?: JetStreamConnection;
  private messages?: ConsumerMessages;
  private following?: Promise<void>;
  private readonly stopped = new AbortController();
  /** The last sequence delivered live: a restarted consumer goes on from the next one. */
  private lastSeq = 0;
  private consuming = false;
  /** The newest events followed, by consecutive sequence (null: one that failed its schema). */
  private kept: { seq: number; frame: LiveFrame | null }[] = [];

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  /** Whether live events flow: streams are refused (503) until they do. */
  get ready(): boolean {
    return this.consuming;
  }

  private get streamName(): string {
    return namespacedName(this.config.CM_NAMESPACE, streams.live.name);
  }

  onApplicationBootstrap(): void {
    // In the background: the gateway serves everything else while NATS is away.
    this.following = this.follow();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped.abort();
    this.messages?.stop();
    await this.following;
    await this.connection?.close();
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async position(): Promise<StreamPosition> {
    const info = await this.jetstream().jsm.streams.info(this.streamName);
    return { first: info.state.first_seq, last: info.state.last_seq };
  }

  /**
   * The events from `from` to `to` (both included), or null when some of them are no longer
   * kept: from memory when this process followed them all, else read from the stream within
   * NATS_REQUEST_TIMEOUT_MS (or it throws).
   */
  async read(from: number, to: number): Promise<LiveFrame[] | null> {
    const first = this.kept[0]?.seq;
    if (first !== undefined && first <= from && this.kept.at(-1)!.seq >= to) {
      return this.kept.slice(from - first, to - first + 1).flatMap(({ frame }) => (frame ? [frame] : []));
    }
    const consumer = await this.jetstream().js.consumers.get(this.streamName, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    });
    const messages = await consumer.consume({ max_messages: Math.min(to - from + 1, 1000) });
    const timer = setTimeout(() => messages.stop(), this.config.NATS_REQUEST_TIMEOUT_MS);
    const frames: LiveFrame[] = [];
    let next = from;
    try {
      for await (const msg of messages) {
        // The first ones aged out meanwhile: the server started at the oldest it still has.
        if (msg.seq !== next) return null;
        const frame = this.frameOf(msg);
        if (frame) frames.push(frame);
        next++;
        if (msg.seq >= to) break;
      }
    } finally {
      clearTimeout(timer);
      messages.stop();
    }
    if (next <= to)
      throw new Error(
        `Reading live events ${from}–${to} took over ${this.config.NATS_REQUEST_TIMEOUT_MS} ms`,
      );
    return frames;
  }

  private jetstream(): JetStreamConnection {
    if (!this.connection) throw new Error('Not connected to JetStream yet');
    return this.connection;
  }

  private follow(): Promise<void> {
    return retryWithBackoff(
      this.stopped.signal,
      async () => {
        try {
          this.connection ??= await JetStreamConnection.connectAs(this.config, 'gateway', 'live');
          await this.connection.ensureStream(streams.live);
          await this.consume(this.connection);
          return 'again';
        } finally {
          this.consuming = false;
        }
      },
      (error, retryInMs) =>
        this.logger.warn(`Following live events failed, retrying in ${retryInMs} ms: ${String(error)}`),
    );
  }

  /** Until the consumer ends (stopped, or the stream went away). */
  private async consume(connection: JetStreamConnection): Promise<void> {
    if (this.lastSeq > 0 && (await this.position()).last < this.lastSeq) {
      // The stream was recreated: its sequences start again, and ours mean nothing there.
      this.lastSeq = 0;
      this.resyncAll();
    }
    const consumer = await connection.js.consumers.get(
      this.streamName,
      this.lastSeq > 0
        ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: this.lastSeq + 1 }
        : { deliver_policy: DeliverPolicy.New },
    );
    this.messages = await consumer.consume();
    if (this.stopped.signal.aborted) this.messages.stop();
    this.consuming = true;
    for await (const msg of this.messages) {
      if (this.lastSeq > 0 && msg.seq !== this.lastSeq + 1) this.resyncAll();
      this.lastSeq = msg.seq;
      const frame = this.frameOf(msg);
      this.keep(msg.seq, frame);
      if (!frame) continue;
      for (const listener of this.listeners) listener.frame(frame);
    }
  }

  private resyncAll(): void {
    this.kept = [];
    for (const listener of this.listeners) listener.resync();
  }

  private keep(seq: number, frame: LiveFrame | null): void {
    if (this.kept.length > 0 && this.kept.at(-1)!.seq !== seq - 1) this.kept = [];
    this.kept.push({ seq, frame });
    if (this.kept.length > KEPT_FRAMES) this.kept.splice(0, this.kept.length - KEPT_FRAMES);
  }

  private frameOf(msg: JsMsg): LiveFrame | null {
    const subject = msg.subject.slice(this.config.CM_NAMESPACE.length + 1) as EventSubject;
    const schema = eventSchemas[subject];
    const parsed = schema?.safeParse(json.decode(msg.data));
    if (!parsed?.success) {
      this.logger.warn(`Ignored a live event that fails its schema (${msg.subject}, stream seq ${msg.seq})`);
      return null;
    }
    return { seq: msg.seq, text: sseFrame(liveEventType(subject), parsed.data, msg.seq) };
  }
}
