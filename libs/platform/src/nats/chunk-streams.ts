import { ErrorCode, type MessageDef, namespacedSubject } from '@cm/contracts';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Logger } from '@nestjs/common';
import { type Msg, type Subscription } from 'nats';
import { AppError } from '../errors';
import { platformMetrics } from '../metrics/platform-metrics';
import { CHUNK_HEADERS, chunkPull, replyHeaders } from './chunk-headers';
import { type RpcClient } from './rpc-client';
import { extractTraceContext } from './trace-headers';

/*
 * Chunked replies: an answer too large for one NATS message (1 MB), produced as it is read and
 * pulled a chunk at a time. The caller opens a stream by a request of its own (naming the stream's
 * id), then pulls `<subject>.<id>` until the reply marked last. Pulling is the flow control: the
 * holder produces one chunk ahead of the caller at most, so neither side holds the whole answer,
 * and a caller that stops pulling (a slow download) stops the producer too. A pull's reply is one
 * reply to one request, which the NATS permissions already allow a service (allow_responses).
 */

const tracer = trace.getTracer('@cm/platform/nats');
const encoder = new TextEncoder();

/** What a stream reads from (a query's output). */
export interface ChunkSource {
  /** Starts reading (runs the query); rejects if the stream was cancelled meanwhile. */
  start(): Promise<void>;
  /**
   * The next chunk, as text or as its UTF-8 bytes (cut anywhere: the caller writes them as they
   * come), `last` on the final one (the source has then freed what it held).
   */
  next(): Promise<{ text: string | Uint8Array; last: boolean }>;
  /** Stops early: interrupts what runs, frees what the source holds. Never rejects. */
  cancel(): Promise<void>;
}

/** How a stream ended: read to its end, cancelled by its caller, failed, or left unpulled. */
export type ChunkStreamOutcome = 'completed' | 'cancelled' | 'failed' | 'abandoned';

export interface ChunkStreamServerOptions {
  rpc: RpcClient;
  namespace: string;
  /** The pulls' subject; each stream's is this plus `.<id>`. */
  def: MessageDef;
  /** A stream not pulled for this long is given up (its caller is gone). */
  idleMs: number;
  /** Streams open at once on this replica; more are refused (503) until one ends. */
  max: number;
  onEnd?: (outcome: ChunkStreamOutcome) => void;
}

interface Stream {
  source: ChunkSource;
  busy: boolean;
  ended: boolean;
  idle?: NodeJS.Timeout;
}

/**
 * The holder's side: the streams open on this replica, answering their pulls. Every replica
 * subscribes to every stream's subject (no queue group) and only the one holding a stream answers:
 * so a cancel reaches the stream wherever it is, even one still opening.
 */
export class ChunkStreamServer {
  private readonly logger = new Logger(ChunkStreamServer.name);
  private readonly streams = new Map<string, Stream>();
  /** Streams cancelled before their open arrived (the two travel on different connections), by when. */
  private readonly cancelledEarly = new Map<string, number>();
  private subscription?: Subscription;
  private readonly prefix: string;

  constructor(private readonly options: ChunkStreamServerOptions) {
    this.prefix = `${namespacedSubject(options.namespace, options.def.subject)}.`;
  }

  async listen(): Promise<void> {
    const nc = await this.options.rpc.connection();
    this.subscription = nc.subscribe(`${this.prefix}*`, {
      callback: (error, msg) => {
        if (!error) this.receive(msg);
      },
    });
    await nc.flush();
  }

  /** Streams open now. */
  get size(): number {
    return this.streams.size;
  }

  /** Opens stream `id` on `source`: resolves once the source has started, ready to be pulled. */
  async open(id: string, source: ChunkSource): Promise<void> {
    if (this.streams.has(id)) throw new AppError(ErrorCode.VALIDATION_FAILED, `Stream ${id} is already open`);
    if (this.streams.size >= this.options.max) {
      throw new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'Too many reports are being downloaded at once. Try again in a minute.',
      );
    }
    const stream: Stream = { source, busy: true, ended: false };
    this.streams.set(id, stream);
    const cancelled = () => new AppError(ErrorCode.SERVICE_UNAVAILABLE, 'The download was cancelled');
    if (this.cancelledEarly.delete(id)) {
      await this.end(id, 'cancelled');
      throw cancelled();
    }
    try {
      await source.start();
    } catch (error) {
      // Interrupted by its cancel: what it failed with is only that.
      if (stream.ended) throw cancelled();
      await this.end(id, 'failed');
      throw error;
    }
    if (stream.ended) throw cancelled();
    stream.busy = false;
    this.arm(id, stream);
  }

  /** Ends every stream (the service stops). */
  async close(): Promise<void> {
    this.subscription?.unsubscribe();
    await Promise.all([...this.streams.keys()].map((id) => this.end(id, 'cancelled')));
  }

  private receive(msg: Msg): void {
    const id = msg.subject.slice(this.prefix.length);
    const stream = this.streams.get(id);
    if (msg.headers?.get(CHUNK_HEADERS.cancel)) {
      if (stream) void this.end(id, 'cancelled');
      else this.rememberCancel(id);
      return;
    }
    // Another replica's stream, or one already ended: its caller's pull times out.
    if (!stream || stream.ended) return;
    if (stream.busy) {
      msg.respond(chunkPull, {
        headers: replyHeaders({ error: 'A chunk was pulled before the last one came' }),
      });
      void this.end(id, 'failed');
      return;
    }
    stream.busy = true;
    clearTimeout(stream.idle);
    const name = this.options.def.subject;
    void context.with(extractTraceContext(msg.headers), () =>
      tracer.startActiveSpan(
        `nats process ${name}`,
        {
          kind: SpanKind.SERVER,
          attributes: { 'messaging.system': 'nats', 'messaging.destination.name': name },
        },
        async (span) => {
          const started = performance.now();
          let outcome = 'ok';
          try {
            await this.answer(id, stream, msg);
          } catch (error) {
            outcome = 'error';
            span.setStatus({ code: SpanStatusCode.ERROR });
            this.logger.error(`Stream ${name}.${id} failed: ${String(error)}`);
            if (!stream.ended) {
              msg.respond(chunkPull, { headers: replyHeaders({ error: 'The report could not be read' }) });
              await this.end(id, 'failed');
            }
          } finally {
            platformMetrics.natsHandleDuration.observe(
              { outcome, pattern: name },
              (performance.now() - started) / 1000,
            );
            span.end();
          }
        },
      ),
    );
  }

  private async answer(id: string, stream: Stream, msg: Msg): Promise<void> {
    const { text, last } = await stream.source.next();
    // Cancelled while the chunk was read: nobody waits for it.
    if (stream.ended) return;
    msg.respond(typeof text === 'string' ? encoder.encode(text) : text, { headers: replyHeaders({ last }) });
    if (last) return this.end(id, 'completed');
    stream.busy = false;
    this.arm(id, stream);
  }

  private arm(id: string, stream: Stream): void {
    stream.idle = setTimeout(() => void this.end(id, 'abandoned'), this.options.idleMs);
    stream.idle.unref();
  }

  private async end(id: string, outcome: ChunkStreamOutcome): Promise<void> {
    const stream = this.streams.get(id);
    if (!stream || stream.ended) return;
    stream.ended = true;
    clearTimeout(stream.idle);
    this.streams.delete(id);
    if (outcome !== 'completed') await stream.source.cancel();
    this.options.onEnd?.(outcome);
  }

  private rememberCancel(id: string): void {
    const now = performance.now();
    for (const [early, at] of this.cancelledEarly) {
      if (now - at > this.options.idleMs) this.cancelledEarly.delete(early);
    }
    this.cancelledEarly.set(id, now);
  }
}

/**
 * What `start` answers, or a rejection as soon as `signal` aborts. Started only when not aborted
 * yet: a request made first and then refused unawaited rejected later with nobody to hear it (its
 * deadline, when the download had stopped), and an unhandled rejection ends the process.
 */
function abortable<T>(start: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return start();
  signal.throwIfAborted();
  const promise = start();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The caller's side: the chunks of stream `streamId` as they are pulled, one pull at a time, each
 * within `timeoutMs`. Stopping early (the consumer returns, `signal` aborts, a pull fails) tells
 * the holder to cancel the stream.
 */
export async function* readChunks(
  rpc: RpcClient,
  def: MessageDef,
  streamId: string,
  { timeoutMs, signal }: { timeoutMs: number; signal?: AbortSignal },
): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    for (;;) {
      const chunk = await abortable(() => rpc.pullChunk(def, streamId, timeoutMs), signal);
      finished = chunk.last;
      yield chunk.data;
      if (finished) return;
    }
  } finally {
    if (!finished) await rpc.cancelChunks(def, streamId).catch(() => undefined);
  }
}
