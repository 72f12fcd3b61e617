import { messages, type SweepAcceptance, type SweepAssignment, type SweepReport } from '@cm/contracts';
import { extractTraceContext, JetStreamConnection } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import { context, trace } from '@opentelemetry/api';
import { type MsgHdrs, type Subscription } from 'nats';
import { ownership } from '../cluster/assignment';
import { Membership } from '../cluster/membership';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { Pinger } from '../ping/pinger';
import { summarize } from '../ping/status';
import { TargetList } from '../targets/target-list';
import { pingShare } from './ping-share';
import { StatusPublisher } from './status-publisher';
import { ReplicaWire } from './wire';

const tracer = trace.getTracer('@cm/monitor');

/**
 * Requests queued in the pinger before a share waits to add more: enough for several of the
 * pinger's wakes at any packet gap (it sends at most 256 a turn without one), few enough that
 * what waits in the queue stays small and young. What awaits a reply is bounded by the pinger.
 */
const SEND_AHEAD = 512;

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
  private readonly wire: ReplicaWire;

  constructor(
    private readonly jetstream: JetStreamConnection,
    private readonly membership: Membership,
    private readonly targets: TargetList,
    private readonly pinger: Pinger,
    private readonly metrics: MonitorMetrics,
  ) {
    this.wire = new ReplicaWire(jetstream.nc, jetstream.namespace);
  }

  start(): void {
    this.subscription = this.wire.serve(
      messages.monitor.assignSweep,
      this.membership.memberId,
      (assignment, respond, headers) => this.accept(assignment, respond, headers),
      (error) => this.logger.warn(`Sweep assignments: ${String(error)}`),
    );
  }

  /** Stops taking shares, cuts the running ones short (reported aborted), and closes the pinger. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.subscription?.unsubscribe();
    for (const share of this.shares) share.aborted = true;
    this.pinger.close();
    await Promise.all([...this.shares].map((s) => s.done));
  }

  private accept(
    assignment: SweepAssignment | undefined,
    respond: (reply: SweepAcceptance) => void,
    headers: MsgHdrs | undefined,
  ): void {
    const accepted = assignment !== undefined && !this.stopping;
    respond({ accepted });
    if (!assignment) this.logger.warn('Ignored a sweep assignment that fails its schema');
    if (!accepted || !assignment) return;
    const share: Share = { aborted: false, done: Promise.resolve() };
    // The coordinator's sweep span is the parent: the events published here continue its trace.
    share.done = context
      .with(extractTraceContext(headers), () =>
        tracer.startActiveSpan(
          'monitor sweep share',
          { attributes: { 'cm.sweep.id': assignment.sweepId, 'cm.sweep.part': assignment.part } },
          (span) => this.run(assignment, share).finally(() => span.end()),
        ),
      )
      .catch((error: unknown) =>
        this.logger.error(`Sweep ${assignment.sweepId} failed here: ${String(error)}`),
      )
      .finally(() => this.shares.delete(share));
    this.shares.add(share);
  }

  private async run(assignment: SweepAssignment, share: Share): Promise<void> {
    const started = performance.now();
    const me = this.membership.memberId;
    const mine = this.targets.share(ownership(assignment, me));
    const report: SweepReport = {
      sweepId: assignment.sweepId,
      part: assignment.part,
      memberId: me,
      targets: mine.equipmentIds.length,
      answered: 0,
      published: 0,
      aborted: false,
      lastSequence: 0,
    };
    const publisher = new StatusPublisher(this.jetstream, this.metrics, {
      sweepId: assignment.sweepId,
      part: assignment.part,
      memberId: me,
    });
    await pingShare(mine, {
      ping: (address, done) =>
        this.pinger.pingWith(address, (error, result) => {
          if (result) this.metrics.pings.inc({ result: result.alive ? 'answered' : 'unanswered' });
          done(error, result);
        }),
      checked: (equipmentId, results) => {
        const { status, rttMs } = summarize(results);
        publisher.add({ equipmentId, status, checkedAt: new Date().toISOString(), rttMs, results });
        if (results.some((r) => r.alive)) report.answered++;
      },
      aborted: () => share.aborted,
      ready: () => this.pinger.room(SEND_AHEAD) ?? publisher.ready(),
    });
    await publisher.close();
    report.published = publisher.published;
    report.lastSequence = publisher.lastSequence;
    report.aborted = share.aborted;
    this.metrics.shareDuration.observe((performance.now() - started) / 1000);
    this.wire.publish(messages.monitor.sweepDone, report);
  }
}
