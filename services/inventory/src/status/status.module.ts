import { Module } from '@nestjs/common';
import { HistoryRetentionService } from './history-retention.service';
import { StatusEventsConsumer } from './status-events.consumer';
import { StatusRepository } from './status.repository';

@Module({
  providers: [StatusRepository, StatusEventsConsumer, HistoryRetentionService],
  exports: [StatusRepository],
})
export class StatusModule {}
