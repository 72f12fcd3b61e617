import { events, STATUS_BATCH_MAX_CHECKS, type StatusBatch, type StatusCheck } from '@cm/contracts';
import { type JetStreamConnection } from '@cm/platform';
import { Logger } from '@nestjs/common';
import { type MonitorMetrics } from '../metrics/monitor-metrics';

/** A batch is sent when it holds this much JSON, whatever its count: NATS refuses 1 MB. */
const MAX_BATCH_BYTES = 512 * 1024;
/** How long a partly filled batch waits for more results, so a sweep's results flow as it goes. */
const LINGER_MS = 50;

/** Batches sent and not yet acknowledged past which `ready` asks the sweep to wait. */
const MAX_UNACKNOWLEDGED = 8;

/** Rough JSON size of a check, without encoding it twice. */
const sizeOf = (check: StatusCheck) => 160 + 64 * check.results.length;

/**
 * Gathers one replica's results of one part of a sweep into batch messages. Each batch's stream
 * message id is `<sweep>:<part>:<member>:<n>`, so a batch sent again is stored once; inventory
 * recognises each check in it by its sweep and time, so a share handed to another replica is
 * not counted twice either.
 */
export class StatusPublisher {
  /** Checks the stream has acknowledged. */
  published = 0;
  /** Highest stream sequence acknowledged: inventory has recorded the part once it acknowledges this. */
  lastSequence = 0;
  private pending: StatusCheck[] = [];
  private pendingBytes = 0;
  private batches = 0;
  private timer?: NodeJS.Timeout;
  private readonly sending = new Set<Promise<void>>();
  private readonly logger = new Logger(StatusPublisher.name);

  constructor(
    private readonly jetstream: JetStreamConnection,
    private readonly metrics: MonitorMetrics,
    private readonly batchId: { sweepId: string; part: number; memberId: string },
  ) {}

  add(check: StatusCheck): void {
    this.metrics.equipmentChecked.inc({ status: check.status });
    this.pending.push(check);
    this.pendingBytes += sizeOf(check);
    if (this.pending.length >= STATUS_BATCH_MAX_CHECKS || this.pendingBytes >= MAX_BATCH_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), LINGER_MS);
  }

  /**
   * Undefined while more checks may come; otherwise (the stream acknowledges batches more slowly
   * than the sweep fills them) a promise of the next acknowledgement, so that unsent results do not
   * pile up in memory.
   */
  ready(): Promise<void> | undefined {
    if (this.sending.size < MAX_UNACKNOWLEDGED) return undefined;
    return Promise.race(this.sending);
  }

  /** Sends what is gathered and waits until every batch is acknowledged or has failed. */
  async close(): Promise<void> {
    this.flush();
    while (this.sending.size) await Promise.all(this.sending);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const checks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const { sweepId, part, memberId } = this.batchId;
    const msgId = `${sweepId}:${part}:${memberId}:${this.batches++}`;
    const sent = this.send({ sweepId, checks }, msgId).finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }

  private async send(batch: StatusBatch, msgId: string): Promise<void> {
    try {
      const ack = await this.jetstream.publish(events.statusChecked, batch, { msgId });
      this.published += batch.checks.length;
      this.lastSequence = Math.max(this.lastSequence, ack.seq);
      this.metrics.eventsPublished.inc(batch.checks.length);
    } catch (error) {
      this.metrics.publishFailures.inc(batch.checks.length);
      this.logger.warn(
        `${batch.checks.length} results of sweep ${batch.sweepId} not published (${msgId}): ${String(error)}`,
      );
    }
  }
}
