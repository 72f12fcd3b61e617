import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module';
import { MorningSummary, MorningSummaryMessageController } from './morning-summary.service';
import { MorningSummaryRepository } from './morning-summary.repository';

/** The morning readiness summary (issue 38): its settings, and the day's message to the chosen channels. */
@Module({
  imports: [NotificationsModule],
  controllers: [MorningSummaryMessageController],
  providers: [MorningSummaryRepository, MorningSummary],
})
export class MorningSummaryModule {}
