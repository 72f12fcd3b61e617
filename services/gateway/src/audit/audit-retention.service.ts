import { CONFIG } from '@cm/platform';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type Config } from '../config';
import { AuditRepository } from './audit.repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Deletes entries older than AUDIT_RETENTION_DAYS, at start and hourly, on every replica (idempotent). */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditRetention.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly entries: AuditRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.purge(), HOUR_MS);
    this.timer.unref();
    void this.purge();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async purge(now = Date.now()): Promise<number> {
    try {
      const deleted = await this.entries.deleteOlderThan(
        new Date(now - this.config.AUDIT_RETENTION_DAYS * DAY_MS),
      );
      if (deleted)
        this.logger.log(
          `Deleted ${deleted} audit entries older than ${this.config.AUDIT_RETENTION_DAYS} days`,
        );
      return deleted;
    } catch (error) {
      this.logger.warn(`Old audit entries not deleted, trying again within the hour: ${String(error)}`);
      return 0;
    }
  }
}
