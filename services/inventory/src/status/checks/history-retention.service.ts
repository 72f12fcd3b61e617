import { CONFIG } from '@cm/platform';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { type Config } from '../../config';
import { PeriodicTask } from '../../shared/periodic-task';
import { HealthService } from '../health/health.service';
import { StatusEventsConsumer } from './status-events.consumer';
import { StatusRepository } from './status.repository';

/**
 * Status spans that ended, and day counters, are kept for a bounded time: at least the report
 * window, by default 400 days. They are few (changes, not pings), so deleting them is cheap.
 * Hour counters, 24 rows per device per day, have a shorter retention of their own; so do the
 * daily lamp samples, which only the lamp forecast reads. The ids of handled status messages go
 * once the stream will not deliver them again.
 */
@Injectable()
export class HistoryRetentionService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(HistoryRetentionService.name);
  private readonly task = new PeriodicTask(
    () => this.prune(),
    (error) => this.logger.warn(`Pruning the status history failed: ${String(error)}`),
  );

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly status: StatusRepository,
    private readonly health: HealthService,
    private readonly statusEvents: StatusEventsConsumer,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.INVENTORY_HISTORY_PRUNE_INTERVAL_MS);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  async prune(): Promise<number> {
    const now = Date.now();
    const before = new Date(now - this.config.INVENTORY_HISTORY_RETENTION_HOURS * 3_600_000);
    const removed = await this.status.prune(before);
    if (removed)
      this.logger.log(
        `Removed ${removed} status span(s) and day counter(s) older than ${before.toISOString()}`,
      );
    const hoursBefore = new Date(now - this.config.INVENTORY_STATUS_HOURS_RETENTION_DAYS * 86_400_000);
    const hours = await this.status.pruneHours(hoursBefore);
    if (hours) this.logger.log(`Removed ${hours} hour counter(s) older than ${hoursBefore.toISOString()}`);
    const health = await this.health.prune(before, now);
    if (health) this.logger.log(`Removed ${health} health span(s), firmware change(s) and lamp sample(s)`);
    const messages = await this.statusEvents.forgetHandled(now);
    if (messages) this.logger.log(`Forgot ${messages} status message(s) the stream will not deliver again`);
    return removed + hours + health + messages;
  }
}
