import { randomBytes } from 'node:crypto';
import { ErrorCode, messages, type SweepAssignment } from '@cm/contracts';
import { AppError, CONFIG, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { ErrorCode as NatsErrorCode, NatsError } from 'nats';
import { Membership } from '../cluster/membership';
import { type Config } from '../config';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { TargetList } from '../targets/target-list';
import { SweepRun } from './sweep-run';
import { ReplicaWire } from './wire';

/**
 * How long a replica has to accept its share. One that does not answer in time but is still in
 * membership is busy, not gone: its share stays with it (handing it on would ping those devices
 * twice); if it really is gone, its membership entry expires and the poll hands the share on.
 */
const ACCEPT_TIMEOUT_MS = 2000;
/** How often membership is read while a sweep runs, to notice replicas that went away. */
const MEMBERSHIP_POLL_MS = 1000;

const tracer = trace.getTracer('@cm/monitor');

export type SweepReason = 'schedule' | 'check';

export interface SweepOutcome {
  sweepId: string;
  /** Every share was reported done (none lost to a replica that went away with no one left). */
  completed: boolean;
  /** Equipment in the list of the replica that fired the sweep. */
  targets: number;
  answered: number;
  published: number;
  /** Highest stream sequence of the sweep's results: recorded once inventory has acknowledged it. */
  lastSequence: number;
  members: number;
  durationMs: number;
}

/** Sortable by time, short enough that `<equipment uuid>:<sweep id>` fits the 64-character event id. */
export function newSweepId(now = Date.now()): string {
  return `${now.toString(36)}-${randomBytes(4).toString('hex')}`;
}

/**
 * Fires one sweep over the live replicas and waits for their reports. A replica that refuses its
 * share, reports it aborted, or drops out of membership before reporting has its share handed to
 * the replicas left (a new part of the same sweep, so the event ids stay the same).
 */
@Injectable()
export class SweepCoordinator {
  private readonly logger = new Logger(SweepCoordinator.name);
  private readonly running = new Set<SweepRun>();
  private readonly wire: ReplicaWire;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    jetstream: JetStreamConnection,
    private readonly membership: Membership,
    private readonly targets: TargetList,
    private readonly metrics: MonitorMetrics,
  ) {
    this.wire = new ReplicaWire(jetstream.nc, jetstream.namespace);
  }

  /**
   * For a replica going away: waits (a little) until the sweeps fired here have handed its own
   * share to the others, then ends their waits (they are reported incomplete).
   */
  async stop(handOffMs = 3000): Promise<void> {
    const me = this.membership.memberId;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...this.running].map((sweep) => sweep.until(() => sweep.handedOff(me)))),
      new Promise((resolve) => (timer = setTimeout(resolve, handOffMs))),
    ]);
    clearTimeout(timer);
    for (const sweep of this.running) sweep.end(false);
  }

  /**
   * One span per sweep: the shares, the status events and inventory's commits are its children, so
   * a status change is one trace from here to the database.
   */
  run(reason: SweepReason, sweepId = newSweepId()): Promise<SweepOutcome> {
    return tracer.startActiveSpan(
      'monitor sweep',
      { attributes: { 'cm.sweep.id': sweepId, 'cm.sweep.reason': reason } },
      async (span) => {
        try {
          const outcome = await this.sweep(reason, sweepId);
          span.setAttributes({
            'cm.sweep.targets': outcome.targets,
            'cm.sweep.completed': outcome.completed,
          });
          return outcome;
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(error) });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }

  private async sweep(reason: SweepReason, sweepId: string): Promise<SweepOutcome> {
    const members = await this.membership.live();
    if (members.length === 0) {
      throw new AppError(
        ErrorCode.SERVICE_UNAVAILABLE,
        'No monitor replica is ready yet: each waits for the equipment list from inventory. Try again shortly.',
      );
    }
    const sweep = new SweepRun(sweepId, members, this.targets.size);
    const started = performance.now();
    const reports = this.wire.listen(messages.monitor.sweepDone, (report) => {
      if (report.sweepId === sweep.id) sweep.onReport(report);
    });
    const deadline = setTimeout(() => sweep.end(false), this.config.MONITOR_SWEEP_TIMEOUT_MS);
    this.running.add(sweep);
    // A member counts as gone once two reads in a row miss it: a read of the bucket under load can
    // come back short, and handing on the share of a replica still at work pings its devices twice.
    let missing = new Set<string>();
    const poll = setInterval(() => {
      this.membership.live().then(
        (live) => {
          const gone = sweep.pendingMembers().filter((m) => !live.includes(m));
          const confirmed = gone.filter((m) => missing.has(m));
          missing = new Set(gone);
          this.reassign(sweep, confirmed);
        },
        (error: unknown) =>
          this.logger.warn(`Reading membership during sweep ${sweep.id} failed: ${String(error)}`),
      );
    }, MEMBERSHIP_POLL_MS);
    sweep.onFailure = (member) => this.reassign(sweep, [member]);
    try {
      this.assign(sweep, sweep.nextPart([], members));
      const completed = await sweep.finished;
      const outcome: SweepOutcome = {
        sweepId: sweep.id,
        completed,
        targets: sweep.targets,
        answered: Math.min(sweep.answered, sweep.targets),
        published: sweep.published,
        lastSequence: sweep.lastSequence,
        members: members.length,
        durationMs: Math.round(performance.now() - started),
      };
      this.record(reason, outcome);
      return outcome;
    } finally {
      clearTimeout(deadline);
      clearInterval(poll);
      this.running.delete(sweep);
      reports.unsubscribe();
    }
  }

  private assign(sweep: SweepRun, part: { assignment: SweepAssignment; assignees: string[] }): void {
    for (const member of part.assignees) {
      sweep.track(
        this.wire
          .ask(messages.monitor.assignSweep, member, part.assignment, ACCEPT_TIMEOUT_MS)
          .then((acceptance) => {
            if (!acceptance.accepted) sweep.fail(member);
          })
          .catch((error: unknown) => {
            if (error instanceof NatsError && error.code === NatsErrorCode.Timeout) {
              this.logger.warn(
                `Sweep ${sweep.id}: ${member} did not accept part ${part.assignment.part} within ${ACCEPT_TIMEOUT_MS} ms; its share stays with it while it stays in membership`,
              );
              return;
            }
            sweep.fail(member);
          }),
      );
    }
  }

  /**
   * Hands the shares of `gone` replicas to every other member still in the sweep. A member that a
   * read of membership happened to miss gets its part too: left out but not excluded, the devices
   * the new part gives it would go unpinged; if it really is gone, its part is handed on in turn.
   */
  private reassign(sweep: SweepRun, gone: string[]): void {
    if (sweep.isOver) return;
    const lost = sweep.activeMembers().filter((m) => gone.includes(m));
    if (lost.length === 0) return;
    const part = sweep.nextPart(lost, sweep.members);
    this.metrics.reassigned.inc(lost.length);
    if (part.assignees.length === 0) {
      this.logger.warn(`Sweep ${sweep.id}: no replica left to take the share of ${lost.join(', ')}`);
      sweep.end(false);
      return;
    }
    this.logger.warn(
      `Sweep ${sweep.id}: the share of ${lost.join(', ')} goes to ${part.assignees.join(', ')}`,
    );
    this.assign(sweep, part);
  }

  private record(reason: SweepReason, outcome: SweepOutcome): void {
    this.metrics.sweeps.inc({ outcome: outcome.completed ? 'complete' : 'incomplete', reason });
    this.metrics.sweepDuration.observe(outcome.durationMs / 1000);
    this.metrics.sweepTargets.set(outcome.targets);
    this.metrics.members.set(outcome.members);
    if (!outcome.completed) {
      this.logger.warn(
        `Sweep ${outcome.sweepId} (${reason}) ended incomplete after ${outcome.durationMs} ms: ${outcome.published} events published`,
      );
    }
  }
}
