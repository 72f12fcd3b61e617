import { type ReadinessClass, type ReadinessQuery, messages } from '@cm/contracts';
import { CONFIG, RpcClient } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Config } from '../config';
import { PeriodicTask } from '../shared/periodic-task';
import { READINESS_CLOCK, type ReadinessClock } from './readiness-config';
import { readinessReasons } from './readiness-rules';
import { type DueClass, ReadinessRepository } from './readiness.repository';

/** The room check's answer may take the pings of a silent address and the deep probes. */
const CHECK_TIMEOUT_MS = 30_000;
const LIST_DEFAULT_MS = 12 * 3_600_000;

/**
 * The readiness check: READINESS_LEAD_MINUTES before each class, the room's check ("Check this
 * room now", `monitor.room.check`: pings and deep probes at once) runs, and its outcome is kept
 * for the readiness list. Each class's check is claimed by inserting its row, so one replica runs it.
 */
@Injectable()
export class ReadinessService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ReadinessService.name);
  private readonly task = new PeriodicTask(
    () => this.round(),
    (error) => this.logger.warn(`Readiness checks failed: ${String(error)}`),
  );

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(READINESS_CLOCK) private readonly clock: ReadinessClock,
    private readonly readiness: ReadinessRepository,
    private readonly rpc: RpcClient,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.READINESS_TICK_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  list(query: ReadinessQuery): Promise<ReadinessClass[]> {
    const from = query.from ? new Date(query.from) : this.clock.now();
    const to = query.to ? new Date(query.to) : new Date(from.getTime() + LIST_DEFAULT_MS);
    return this.readiness.list(from, to);
  }

  /** One round: checks the classes due; a round still running is joined, not doubled. */
  checkDue(): Promise<unknown> {
    return this.task.run();
  }

  private async round(): Promise<void> {
    const now = this.clock.now();
    const due = await this.readiness.due(now, this.config.READINESS_LEAD_MINUTES * 60_000);
    for (const d of due) {
      if (await this.readiness.claim(d, now)) await this.check(d);
    }
  }

  /** A check that fails leaves the class "not checked", which is what a person should read. */
  private async check(due: DueClass): Promise<void> {
    const equipment = await this.readiness.equipmentOf(due.roomId);
    try {
      const result = await this.rpc.send(
        messages.monitor.checkRoom,
        {
          roomId: due.roomId,
          equipment: equipment.map((e) => ({ equipmentId: e.id, ipAddress: e.ipAddress })),
        },
        { timeoutMs: CHECK_TIMEOUT_MS },
      );
      const reasons = readinessReasons(result, new Map(equipment.map((e) => [e.id, e])));
      await this.readiness.record(due, {
        state: reasons.length ? 'at-risk' : 'ready',
        reasons,
        checkedAt: new Date(result.checkedAt),
      });
    } catch (error) {
      this.logger.warn(`The readiness check of room ${due.roomId} failed: ${String(error)}`);
    }
  }
}
