import {
  type AddressResult,
  events,
  namespacedSubject,
  patterns,
  type SweepAcceptance,
  type SweepAssignment,
  sweepAssignmentSchema,
  type SweepReport,
} from '@cm/contracts';
import { extractTraceContext, JetStreamConnection } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { context, trace } from '@opentelemetry/api';
import { type Msg, type Subscription } from 'nats';
import { ownsTarget } from '../cluster/assignment';
import { Membership } from '../cluster/membership';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { Pinger, PingerClosedError } from '../ping/pinger';
import { summarize } from '../ping/status';
import { type Target, TargetList } from '../targets/target-list';
import { decodeJson, encodeJson } from './wire';

/** Status events awaiting the stream's acknowledgement at once. */
const PUBLISH_CONCURRENCY = 128;

const tracer = trace.getTracer('@cm/monitor');

/** The de-duplication id of one equipment's result in one sweep (stream msgId and history key). */
export const statusEventId = (equipmentId: string, sweepId: string) => `${equipmentId}:${sweepId}`;

interface Share {
  aborted: boolean;
  done: Promise<void>;
}

/**
 * Pings this replica's share of a sweep when a coordinator asks (on a subject of its own), and
 * publishes one status event per equipment. When the replica stops mid-share it reports the
 * share aborted, so the coordinator hands it to the others; the events it already published
 * carry the same ids as the ones they will publish, so the stream keeps one of each.
 */
@Injectable()
export class SweepWorker {
  private readonly logger = new Logger(SweepWorker.name);
  private readonly shares = new Set<Share>();
  private subscription?: Subscription;
  private stopping = false;

  constructor(
    private readonly jetstream: JetStreamConnection,
    private readonly membership: Membership,
    private readonly targets: TargetList,
    private readonly pinger: Pinger,
    private readonly metrics: MonitorMetrics,
  ) {}

  start(): void {
    const subject = namespacedSubject(
      this.jetstream.namespace,
      `${patterns.monitor.assignSweep}.${this.membership.memberId}`,
    );
    this.subscription = this.jetstream.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) this.logger.warn(`Sweep assignments: ${String(error)}`);
        else this.accept(msg);
      },
    });
  }

  /** Stops taking shares, cuts the running ones short (reported aborted), and closes the pinger. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.subscription?.unsubscribe();
    for (const share of this.shares) share.aborted = true;
    this.pinger.close();
    await Promise.all([...this.shares].map((s) => s.done));
  }

  private accept(msg: Msg): void {
    const parsed = sweepAssignmentSchema.safeParse(decodeJson(msg.data));
    const accepted = parsed.success && !this.stopping;
    msg.respond(encodeJson({ accepted } satisfies SweepAcceptance));
    if (!parsed.success) this.logger.warn('Ignored a sweep assignment that fails its schema');
    if (!accepted || !parsed.success) return;
    const share: Share = { aborted: false, done: Promise.resolve() };
    // The coordinator's sweep span is the parent: the events published here continue its trace.
    const assignment = parsed.data;
    share.done = context
      .with(extractTraceContext(msg.headers), () =>
        tracer.startActiveSpan(
          'monitor sweep share',
          { attributes: { 'cm.sweep.id': assignment.sweepId, 'cm.sweep.part': assignment.part } },
          (span) => this.run(assignment, share).finally(() => span.end()),
        ),
      )
      .catch((error: unknown) =>
        this.logger.error(`Sweep ${parsed.data.sweepId} failed here: ${String(error)}`),
      )
      .finally(() => this.shares.delete(share));
    this.shares.add(share);
  }

  private async run(assignment: SweepAssignment, share: Share): Promise<void> {
    const started = performance.now();
    const me = this.membership.memberId;
    const mine = this.targets.list().filter((t) => ownsTarget(t.equipmentId, assignment, me));
    const report: SweepReport = {
      sweepId: assignment.sweepId,
      part: assignment.part,
      memberId: me,
      targets: mine.length,
      answered: 0,
      published: 0,
      aborted: false,
    };
    // An address shared by several equipment is pinged once.
    const pings = new Map<string, Promise<AddressResult>>();
    const ping = (address: string) => {
      let p = pings.get(address);
      if (!p) pings.set(address, (p = this.pinger.ping(address)));
      return p;
    };
    const publishing = new Limiter(PUBLISH_CONCURRENCY);
    await Promise.all(
      mine.map(async (target) => {
        let results: AddressResult[];
        try {
          results = await Promise.all(target.addresses.map(ping));
        } catch (error) {
          if (error instanceof PingerClosedError) return;
          throw error;
        }
        // A replica going away publishes nothing more: what it measured while stopping is not trusted.
        if (share.aborted) return;
        const published = await publishing.run(() => this.publish(assignment.sweepId, target, results));
        if (results.some((r) => r.alive)) report.answered++;
        if (published) report.published++;
      }),
    );
    for (const r of pings.values()) {
      const result = await r.catch(() => null);
      if (result) this.metrics.pings.inc(1, { result: result.alive ? 'answered' : 'unanswered' });
    }
    report.aborted = share.aborted;
    this.metrics.shareDuration.observe((performance.now() - started) / 1000);
    this.jetstream.nc.publish(
      namespacedSubject(this.jetstream.namespace, patterns.monitor.sweepDone),
      encodeJson(report),
    );
  }

  private async publish(sweepId: string, target: Target, results: AddressResult[]): Promise<boolean> {
    const { status, rttMs } = summarize(results);
    const eventId = statusEventId(target.equipmentId, sweepId);
    this.metrics.equipmentChecked.inc(1, { status });
    try {
      await this.jetstream.publish(
        events.statusChecked,
        {
          eventId,
          equipmentId: target.equipmentId,
          sweepId,
          status,
          checkedAt: new Date().toISOString(),
          rttMs,
          results,
        },
        { msgId: eventId },
      );
      this.metrics.eventsPublished.inc();
      return true;
    } catch (error) {
      this.metrics.publishFailures.inc();
      this.logger.warn(`Status of ${target.equipmentId} in sweep ${sweepId} not published: ${String(error)}`);
      return false;
    }
  }
}

/** Runs at most `limit` tasks at once, the rest in the order they asked. */
class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
