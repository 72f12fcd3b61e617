import { Module } from '@nestjs/common';
import { WebhookTargets } from '../alerting/outbound-addresses';
import { FeedFetcher } from './feeds/feed-fetcher';
import { SchedulePoller } from './feeds/schedule-poller';
import { scheduleClockProvider } from './schedule-clock';
import { OccurrenceRepository } from './sources/occurrence.repository';
import { ScheduleRooms } from './sources/schedule-rooms';
import { ScheduleSourceRepository } from './sources/schedule-source.repository';
import { ScheduleSourcesService } from './sources/schedule-sources.service';
import { SchedulesMessageController } from './sources/schedules.message.controller';

/**
 * Class schedules: sources (feeds and files), their classes by room, and the poller that reads
 * them. Feeds connect under the webhooks' address rules (`WebhookTargets`, a copy of its own).
 */
@Module({
  controllers: [SchedulesMessageController],
  providers: [
    ScheduleSourceRepository,
    OccurrenceRepository,
    ScheduleSourcesService,
    ScheduleRooms,
    SchedulePoller,
    FeedFetcher,
    WebhookTargets,
    scheduleClockProvider,
  ],
})
export class SchedulesModule {}
