import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { HistoryRetentionService } from './history-retention.service';
import { StatusEventsConsumer } from './status-events.consumer';
import { StatusLive } from './status-live';
import { StatusRepository } from './status.repository';

/**
 * The monitor's checks, recorded. `CHECK_ALERTS` comes from alerting's global module: status
 * imports no context above it.
 */
@Module({
  imports: [HealthModule],
  providers: [StatusRepository, StatusEventsConsumer, StatusLive, HistoryRetentionService],
  exports: [StatusRepository],
})
export class ChecksModule {}
