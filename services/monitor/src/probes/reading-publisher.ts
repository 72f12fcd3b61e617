import { randomUUID } from 'node:crypto';
import {
  events,
  PROBE_BATCH_MAX_READINGS,
  type ProbeBatch,
  type ProbeReading,
  probeReadingSchema,
} from '@cm/contracts';
import { type JetStreamConnection, retryWithBackoff } from '@cm/platform';
import { Logger } from '@nestjs/common';
import { type ProbeMetrics } from '../metrics/probe-metrics';

/** How long a partly filled batch waits for more readings. */
export const READINGS_LINGER_MS = 1000;
/** A batch is sent when it holds this much JSON, whatever its count: NATS refuses 1 MB. */
const MAX_BATCH_BYTES = 512 * 1024;
/** Tries of one batch before it is given up; a reading is a snapshot, the next one replaces it. */
const MAX_ATTEMPTS = 5;
/** Batches being sent or retried past which new ones are given up rather than held in memory. */
const MAX_SENDING = 32;
/** How long `close` waits for batches still being sent. */
const CLOSE_WAIT_MS = 5000;

/**
 * Gathers probe readings into batches on the HEALTH stream: up to PROBE_BATCH_MAX_READINGS, sent
 * at least every second. A batch's stream message id is its batch id, so a batch the client
 * sends again (no acknowledgement in time) is stored once.
 */
export class ReadingPublisher {
  private readonly logger = new Logger(ReadingPublisher.name);
  private pending: ProbeReading[] = [];
  private pendingBytes = 0;
  private timer?: NodeJS.Timeout;
  private readonly sending = new Set<Promise<void>>();
  private readonly closing = new AbortController();

  constructor(
    private readonly jetstream: Pick<JetStreamConnection, 'publish'>,
    private readonly metrics?: ProbeMetrics,
  ) {}

  add(reading: ProbeReading): void {
    // Checked one by one: a probe's reading that breaks the contract must not sink its batch.
    const parsed = probeReadingSchema.safeParse(reading);
    if (!parsed.success) {
      this.metrics?.readingsDropped.inc();
      const issue = parsed.error.issues[0];
      this.logger.error(
        `Dropped a ${reading.probeType} reading of ${reading.equipmentId} that breaks the contract: ${issue?.path.join('.')} ${issue?.message}`,
      );
      return;
    }
    this.pending.push(parsed.data);
    this.pendingBytes += JSON.stringify(parsed.data).length;
    if (this.pending.length >= PROBE_BATCH_MAX_READINGS || this.pendingBytes >= MAX_BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), READINGS_LINGER_MS);
  }

  /** Sends what is gathered and waits (a while) for every batch to be acknowledged or given up. */
  async close(): Promise<void> {
    this.flush();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.sending),
      new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS))),
    ]);
    clearTimeout(timer);
    this.closing.abort();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch: ProbeBatch = { batchId: randomUUID(), readings: this.pending };
    this.pending = [];
    this.pendingBytes = 0;
    if (this.sending.size >= MAX_SENDING) {
      this.dropped(batch, 'too many batches are waiting for the stream');
      return;
    }
    const sent = this.send(batch).finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private async send(batch: ProbeBatch): Promise<void> {
    let attempts = 0;
    let lastError: unknown;
    let published = false;
    await retryWithBackoff(
      this.closing.signal,
      async () => {
        attempts++;
        try {
          await this.jetstream.publish(events.healthProbed, batch, { msgId: batch.batchId });
          published = true;
          return 'done';
        } catch (error) {
          lastError = error;
          if (attempts >= MAX_ATTEMPTS) return 'done';
          throw error;
        }
      },
      () => undefined,
      { firstDelayMs: 500, maxDelayMs: 4000 },
    );
    if (published) this.metrics?.readingsPublished.inc(batch.readings.length);
    else this.dropped(batch, `not acknowledged after ${attempts} tries: ${String(lastError)}`);
  }

  private dropped(batch: ProbeBatch, why: string): void {
    this.metrics?.readingsDropped.inc(batch.readings.length);
    this.logger.warn(
      `${batch.readings.length} probe readings not published (batch ${batch.batchId}): ${why}`,
    );
  }
}
