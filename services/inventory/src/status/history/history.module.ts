import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { HistoryMessageController } from './history.message.controller';
import { HistoryRepository } from './history.repository';
import { HistoryService } from './history.service';

@Module({
  imports: [HealthModule],
  controllers: [HistoryMessageController],
  providers: [HistoryRepository, HistoryService],
})
export class HistoryModule {}
