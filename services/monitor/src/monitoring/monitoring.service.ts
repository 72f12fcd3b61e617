import { randomUUID } from 'node:crypto';
import { ErrorCode, events, type MonitoringCheckResult, type MonitoringStatus } from '@cm/contracts';
import { AppError, CONFIG, JetStreamConnection } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Config } from '../config';
import { ResultsRecorded } from '../sweep/results-recorded';
import { SweepCoordinator } from '../sweep/sweep-coordinator';
import { MonitoringState } from './monitoring-state';

@Injectable()
export class MonitoringService {
  private readonly logger = new Logger(MonitoringService.name);

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly state: MonitoringState,
    private readonly coordinator: SweepCoordinator,
    private readonly recorded: ResultsRecorded,
    private readonly jetstream: JetStreamConnection,
  ) {}

  status(): Promise<MonitoringStatus> {
    return this.state.get();
  }

  async start(): Promise<MonitoringStatus> {
    return this.announce(await this.state.setRunning(true));
  }

  async stop(): Promise<MonitoringStatus> {
    return this.announce(await this.state.setRunning(false));
  }

  /**
   * Open screens hear of the stored state (`GET /api/events`). A live event that cannot be
   * published is logged, not an error: the state is stored, and Settings polls it anyway.
   */
  private async announce(status: MonitoringStatus): Promise<MonitoringStatus> {
    await this.jetstream
      .publish(events.liveMonitoringState, status, { msgId: randomUUID() })
      .catch((error: unknown) =>
        this.logger.warn(`The monitoring state was not announced: ${String(error)}`),
      );
    return status;
  }

  /**
   * One sweep now, whatever the running state; answers when its results are recorded (so a
   * screen refreshed after the answer shows them) or after MONITOR_CHECK_WAIT_MS.
   */
  async check(): Promise<MonitoringCheckResult> {
    const waitMs = this.config.MONITOR_CHECK_WAIT_MS;
    const deadline = Date.now() + waitMs;
    const sweep = this.coordinator.run('check');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      sweep,
      new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), waitMs))),
    ]).finally(() => clearTimeout(timer));
    if (!outcome) {
      sweep.catch(() => undefined);
      throw new AppError(
        ErrorCode.CHECK_INCOMPLETE,
        `The check did not finish within ${waitMs / 1000} s. It goes on, and equipment statuses update as its results arrive.`,
      );
    }
    if (!outcome.completed) {
      throw new AppError(
        ErrorCode.CHECK_INCOMPLETE,
        `The check ended without results for all equipment (${outcome.published} of ${outcome.targets} recorded): a monitor replica stopped with no other to take over. Try again.`,
      );
    }
    if (!(await this.recorded.waitFor(outcome.lastSequence, deadline))) {
      throw new AppError(
        ErrorCode.CHECK_INCOMPLETE,
        `Every equipment was checked, but not all results were recorded within ${waitMs / 1000} s. Statuses update as they are.`,
      );
    }
    return {
      completed: true,
      targets: outcome.targets,
      answered: outcome.answered,
      durationMs: outcome.durationMs,
      message:
        outcome.targets === 0
          ? 'No equipment has an address to check'
          : `Checked ${outcome.targets} equipment: ${outcome.answered} answered`,
    };
  }
}
