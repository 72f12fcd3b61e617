import { Module } from '@nestjs/common';
import { AlertsModule } from '../../alerting/alerts/alerts.module';
import { HistoryRetentionService } from './history-retention.service';
import { StatusEventsConsumer } from './status-events.consumer';
import { StatusRepository } from './status.repository';

@Module({
  imports: [AlertsModule],
  providers: [StatusRepository, StatusEventsConsumer, HistoryRetentionService],
  exports: [StatusRepository],
})
export class StatusModule {}
