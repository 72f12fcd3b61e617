import {
  type AddressResult,
  messages,
  namespacedSubject,
  type SweepAcceptance,
  type SweepAssignment,
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
import { TargetList } from '../targets/target-list';
import { StatusPublisher } from './status-publisher';
import { decodeJson, encodeJson } from './wire';

const tracer = trace.getTracer('@cm/monitor');

interface Share {
  aborted: boolean;
  done: Promise<void>;
}

/**
 * Pings this replica's share of a sweep when a coordinator asks (on a subject of its own), and
 * publishes the results in batches as they come. When the replica stops mid-share it reports the
 * share aborted, so the coordinator hands it to the others; inventory recognises a check it
 * already has by its sweep, so a device checked by both is recorded once.
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
      `${messages.monitor.assignSweep.subject}.${this.membership.memberId}`,
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
    const parsed = messages.monitor.assignSweep.request.safeParse(decodeJson(msg.data));
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
      lastSequence: 0,
    };
    // An address shared by several equipment is pinged once.
    const pings = new Map<string, Promise<AddressResult>>();
    const ping = (address: string) => {
      let p = pings.get(address);
      if (!p) pings.set(address, (p = this.pinger.ping(address)));
      return p;
    };
    const publisher = new StatusPublisher(this.jetstream, this.metrics, {
      sweepId: assignment.sweepId,
      part: assignment.part,
      memberId: me,
    });
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
        const { status, rttMs } = summarize(results);
        publisher.add({
          equipmentId: target.equipmentId,
          status,
          checkedAt: new Date().toISOString(),
          rttMs,
          results,
        });
        if (results.some((r) => r.alive)) report.answered++;
      }),
    );
    await publisher.close();
    report.published = publisher.published;
    report.lastSequence = publisher.lastSequence;
    for (const r of pings.values()) {
      const result = await r.catch(() => null);
      if (result) this.metrics.pings.inc({ result: result.alive ? 'answered' : 'unanswered' });
    }
    report.aborted = share.aborted;
    this.metrics.shareDuration.observe((performance.now() - started) / 1000);
    this.jetstream.nc.publish(
      namespacedSubject(this.jetstream.namespace, messages.monitor.sweepDone.subject),
      encodeJson(report satisfies SweepReport),
    );
  }
}
