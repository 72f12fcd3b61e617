import { Module } from '@nestjs/common';
import { HealthEventsConsumer } from './health-events.consumer';
import { HealthReportsMessageController } from './health-reports.message.controller';
import { HealthReportsRepository } from './health-reports.repository';
import { HealthReportsService } from './health-reports.service';
import { HealthRepository } from './health.repository';
import { HealthService } from './health.service';

/** Equipment health beyond ping: the monitor's probe readings recorded, the consumables report and the fleet view. */
@Module({
  controllers: [HealthReportsMessageController],
  providers: [
    HealthRepository,
    HealthService,
    HealthEventsConsumer,
    HealthReportsRepository,
    HealthReportsService,
  ],
  exports: [HealthService],
})
export class HealthModule {}
