import { CONFIG } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { LeaderLease } from '../cluster/leader-lease';
import { Membership } from '../cluster/membership';
import { MonitorStore } from '../cluster/monitor-store';
import { type Config } from '../config';
import { MonitorMetrics } from '../metrics/monitor-metrics';
import { MonitoringState } from '../monitoring/monitoring-state';
import { newSweepId, SweepCoordinator } from './sweep-coordinator';

const TICK_MS = 500;
/** How soon a leader asks inventory again for the running state when KV has none. */
const RESTORE_RETRY_MS = 5000;

/**
 * Fires a sweep every interval while monitoring runs, on the leader only. A new leader carries
 * on from the last sweep recorded in KV; starting monitoring fires one at once; a sweep that
 * outlasts the interval delays the next rather than overlapping it.
 */
@Injectable()
export class SweepScheduler {
  private readonly logger = new Logger(SweepScheduler.name);
  private lease?: LeaderLease;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<void>;
  private inFlight?: Promise<void>;
  /** Epoch ms of the next sweep; unknown until this replica leads and monitoring runs. */
  private nextDue?: number;
  private wasRunning?: boolean;
  /** When this leader last compared the KV state with inventory's; unset: not yet. */
  private restoredAt?: number;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly store: MonitorStore,
    private readonly membership: Membership,
    private readonly state: MonitoringState,
    private readonly coordinator: SweepCoordinator,
    private readonly metrics: MonitorMetrics,
  ) {}

  get isLeader(): boolean {
    return this.lease?.isLeader ?? false;
  }

  start(): void {
    this.lease = new LeaderLease(
      this.store.state,
      this.membership.memberId,
      this.config.MONITOR_MEMBER_TTL_MS,
      (leader) => {
        this.metrics.leader.set(leader ? 1 : 0);
        this.logger.log(
          leader ? 'This replica now schedules the sweeps' : 'This replica no longer schedules the sweeps',
        );
      },
    );
    this.lease.start();
    const loop = () => {
      this.ticking = this.tick()
        .catch((error: unknown) => this.logger.warn(`Scheduling failed: ${String(error)}`))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(loop, TICK_MS);
        });
    };
    this.timer = setTimeout(loop, TICK_MS);
  }

  /** Stops firing sweeps and hands the lease back; a sweep under way is the coordinator's to end. */
  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    await this.lease?.stop();
  }

  private async tick(): Promise<void> {
    if (!this.lease?.isLeader) {
      this.nextDue = undefined;
      this.wasRunning = undefined;
      this.restoredAt = undefined;
      return;
    }
    await this.restoreIfDue();
    const { isRunning, interval } = await this.state.get();
    if (!isRunning) {
      this.wasRunning = false;
      return;
    }
    if (this.wasRunning === false) this.nextDue = Date.now();
    else if (this.nextDue === undefined) {
      const last = await this.state.lastSweep();
      this.nextDue = last ? last.firedAt + interval : Date.now();
    }
    this.wasRunning = true;
    if (this.inFlight || Date.now() < this.nextDue) return;
    const firedAt = Date.now();
    this.nextDue = firedAt + interval;
    const sweepId = newSweepId(firedAt);
    this.metrics.sweepInterval.set(interval / 1000);
    this.inFlight = this.state
      .recordSweep(sweepId, firedAt)
      .then(() => this.coordinator.run('schedule', sweepId))
      .then(
        (outcome) => this.checkOverrun(outcome.durationMs, interval, outcome.targets, sweepId),
        (error: unknown) => this.logger.warn(`Scheduled sweep ${sweepId} failed: ${String(error)}`),
      )
      .finally(() => (this.inFlight = undefined));
  }

  /**
   * A new leader, and one that finds the KV state missing (NATS lost its store), takes the state
   * from inventory; until inventory answers, monitoring reads as stopped and the metrics say so.
   */
  private async restoreIfDue(): Promise<void> {
    if (this.restoredAt !== undefined) {
      if (Date.now() - this.restoredAt < RESTORE_RETRY_MS || (await this.state.stored())) return;
    }
    this.restoredAt = Date.now();
    await this.state
      .restore()
      .catch((error: unknown) =>
        this.logger.warn(`The monitoring state could not be compared with inventory's: ${String(error)}`),
      );
  }

  /** A sweep longer than the interval delays the next one; say so, so that someone adds replicas. */
  private checkOverrun(durationMs: number, interval: number, targets: number, sweepId: string): void {
    if (durationMs <= interval) return;
    this.metrics.sweepOverruns.inc();
    this.logger.warn(
      `Sweep ${sweepId} of ${targets} equipment took ${durationMs} ms, longer than the ${interval} ms interval: ` +
        'the next sweep starts late. Add monitor replicas, or lengthen the interval.',
    );
  }
}
